"""What the benchmarks in bench/ share: processes, databases, load clients, figures, reports.

One module per idea; each benchmark script is a scenario and its report on top of these.
"""
