"""bench/api.py and bench/lib/wrk.py: the wrk script it generates, the parsing of wrk's output
(a sample captured from wrk 4.1.0 running that script, so wrk need not be installed here), the
merging of latencies and the options. No server is started."""
from __future__ import annotations

import collections

import pytest

from bench import api
from bench.lib import stats
from bench.lib.load import SliceResult, WrkLoad, summarise
from bench.lib import wrk as _wrk

# `wrk -t2 -c4 -d1s -s mixed.lua` against the baseline app, where mixed.lua is
# lua_script([("/view/200", {...}), ("/nope", {...})], 2): thread 0 read /view/200 (200),
# thread 1 /nope (404)
WRK_SAMPLE = (
    'Running 1s test @ http://127.0.0.1:18090\n'
    '  2 threads and 4 connections\n'
    '  Thread Stats   Avg      Stdev     Max   +/- Stdev\n'
    '    Latency     8.56ms   21.80ms 180.58ms   91.79%\n'
    '    Req/Sec     1.33k   572.17     2.27k    55.00%\n'
    '  2659 requests in 1.00s, 1.00MB read\n'
    '  Non-2xx or 3xx responses: 1051\n'
    'Requests/sec:   2646.33\n'
    'Transfer/sec:      0.99MB\n'
    'WRK_JSON {"requests":2659,"duration_us":1004789,"bytes":1045243,"errors":{"connect":0,'
    '"read":0,"write":0,"status":1051,"timeout":0},"statuses":{"200":1608,"404":1051},"late'
    'ncy_us":{"min":234,"max":180580,"mean":8562.2,"p50":640,"p90":22827,"p99":121573,"p999'
    '":176041},"percentiles_us":[[1.00,298],[2.00,314],[3.00,323],[4.00,336],[5.00,346],[6.'
    '00,353],[7.00,360],[8.00,365],[9.00,372],[10.00,378],[11.00,384],[12.00,388],[13.00,39'
    '0],[14.00,392],[15.00,394],[16.00,396],[17.00,399],[18.00,400],[19.00,401],[20.00,403]'
    ',[21.00,405],[22.00,406],[23.00,407],[24.00,409],[25.00,411],[26.00,412],[27.00,413],['
    '28.00,415],[29.00,416],[30.00,418],[31.00,419],[32.00,421],[33.00,423],[34.00,425],[35'
    '.00,428],[36.00,431],[37.00,435],[38.00,441],[39.00,448],[40.00,455],[41.00,463],[42.0'
    '0,470],[43.00,477],[44.00,485],[45.00,499],[46.00,513],[47.00,536],[48.00,566],[49.00,'
    '605],[50.00,640],[51.00,666],[52.00,718],[53.00,781],[54.00,887],[55.00,1051],[56.00,1'
    '232],[57.00,1443],[58.00,1642],[59.00,1782],[60.00,1861],[61.00,1959],[62.00,2075],[63'
    '.00,2272],[64.00,2463],[65.00,2613],[66.00,2757],[67.00,2948],[68.00,3214],[69.00,3358'
    '],[70.00,3493],[71.00,3675],[72.00,3965],[73.00,4175],[74.00,4583],[75.00,4872],[76.00'
    ',5101],[77.00,5568],[78.00,6193],[79.00,6582],[80.00,7374],[81.00,7987],[82.00,8749],['
    '83.00,9611],[84.00,10775],[85.00,12186],[86.00,13736],[87.00,15564],[88.00,17640],[89.'
    '00,19853],[90.00,22827],[91.00,26797],[92.00,31626],[93.00,36356],[94.00,42032],[95.00'
    ',48146],[96.00,56120],[97.00,67753],[98.00,88287],[99.00,121573],[99.10,127625],[99.20'
    ',133677],[99.30,139729],[99.40,145781],[99.50,151833],[99.60,157885],[99.70,163937],[9'
    '9.80,169989],[99.90,176041],[99.95,179067],[99.99,180580]],"threads":2}\n'
)


def test_parse_output_reads_the_done_line_and_wrk_summary() -> None:
    got = _wrk.parse_output(WRK_SAMPLE)
    assert got["requests"] == 2659 == got["text_requests"]
    assert got["statuses"] == {200: 1608, 404: 1051}
    assert got["non_2xx_3xx"] == 1051 == got["errors"]["status"]
    assert got["socket_errors"] == 0
    assert got["threads"] == 2
    assert got["rps"] == pytest.approx(2659 / 1.004789)
    lat = got["latency_us"]
    assert (lat["p50"], lat["p99"], lat["max"]) == (640, 121573, 180580)
    # the histogram made from the percentile grid: weights add up to the requests, and its
    # percentiles at the grid's points are wrk's own
    hist = got["histogram_us"]
    assert sum(hist.values()) == pytest.approx(2659)
    assert stats.hist_percentile(hist, 0.50) == 640
    assert stats.hist_percentile(hist, 0.99) == 121573
    assert max(hist) == 180580


def test_parse_output_without_the_done_line_fails() -> None:
    text = WRK_SAMPLE.split(_wrk.MARK)[0]
    with pytest.raises(ValueError, match="no WRK_JSON line"):
        _wrk.parse_output(text)


def test_histogram_weights() -> None:
    hist = _wrk.histogram([[50, 10], [99, 20], [99.9, 30]], 40, 1000)
    assert hist == pytest.approx({10: 500, 20: 490, 30: 9, 40: 1})
    # equal latencies at several points add up; no requests, no weight
    assert _wrk.histogram([[50, 5], [100, 5]], 5, 10) == pytest.approx({5: 10})
    assert _wrk.histogram([], 0, 0) == {}


def test_lua_script_holds_every_request_once_and_splits_them_over_threads() -> None:
    entries = [(f"/v1/matches/m{i}", {"Authorization": f"Bearer t{i}",
                                      "If-None-Match": f'"m{i}.v1.s0"'}) for i in range(4)]
    text = _wrk.lua_script(entries, 2)
    for i in range(4):
        assert (f'{{ "/v1/matches/m{i}", {{ ["Authorization"] = "Bearer t{i}",'
                f' ["If-None-Match"] = "\\"m{i}.v1.s0\\"" }} }},') in text
    assert "local nthreads = 2" in text
    assert "(k - 1) % nthreads == tid" in text  # thread t takes entries t, t + T, ...
    for hook in ("function setup(", "function init(", "function request(",
                 "function response(", "function done("):
        assert hook in text
    assert _wrk.MARK in text
    assert "__" not in text.replace("__index", "")  # every placeholder filled


def test_lua_script_refuses_what_it_cannot_quote() -> None:
    with pytest.raises(ValueError):
        _wrk.lua_script([("/a\nb", {})], 1)
    with pytest.raises(ValueError):
        _wrk.lua_script([("/ok", {"X": "caf\u00e9"})], 1)
    with pytest.raises(ValueError):
        _wrk.lua_script([], 1)


def test_wrk_load_counts_unexpected_statuses_as_errors(tmp_path, monkeypatch) -> None:
    parsed = _wrk.parse_output(WRK_SAMPLE)
    monkeypatch.setattr(_wrk, "run", lambda *a, **k: (parsed, 0.25, WRK_SAMPLE))
    load = WrkLoad("wrk", 1, [("/view/200", {})], 200, 2, 4, tmp_path / "s.lua")
    assert (tmp_path / "s.lua").read_text().startswith("-- generated by bench/lib/wrk.py")
    res = load(0.4)  # wrk takes whole seconds
    assert (res.count, res.ok, res.errors) == (2659, 1608, 1051)
    assert res.extra == collections.Counter({"status_404": 1051})
    assert res.elapsed == pytest.approx(1.004789)
    assert res.client_cpu == 0.25
    summary = summarise(res)
    assert summary["p50_ms"] == 0.64
    assert summary["client_cpu_ms_per_request"] == pytest.approx(250 / 2659)
    # in the conditional-GET phase only 304 is good: every answer here is an error
    load304 = WrkLoad("wrk", 1, [("/view/200", {})], 304, 2, 4, tmp_path / "t.lua")
    res = load304(1)
    assert (res.ok, res.errors) == (0, 2659)


def test_slices_merge_their_latencies() -> None:
    a, b = SliceResult(), SliceResult()
    for s in (0.001, 0.002, 0.003):
        a.record(s)
    b.hist.update({100_000: 1})
    a.add(b)
    assert stats.hist_percentile(a.hist, 0.5) == 2000
    assert stats.hist_percentile(a.hist, 0.99) == 100_000
    assert stats.hist_percentile({}, 0.5) is None
    assert stats.latency_bucket_us(0.0123456) == 12300
    assert stats.latency_bucket_us(0.000789) == 789


def test_defaults_and_bad_options() -> None:
    args = api.parse_args([])
    assert (args.connections, args.wrk_threads, args.clients, args.client_procs) == (32, 2, 8, 2)
    assert args.waiters is None and not args.no_wrk and not args.quick
    given = api.parse_args(["--quick", "--waiters", "10000", "--no-wrk", "--connections", "8"])
    assert (given.waiters, given.no_wrk, given.connections) == (10000, True, 8)
    for bad in (["--connections", "0"], ["--client-procs", "0"], ["--waiters", "5"]):
        with pytest.raises(SystemExit):
            api.parse_args(bad)
