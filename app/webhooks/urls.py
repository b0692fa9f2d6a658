"""Which webhook URLs the server will call: http(s) only, https unless allowed, and, unless
allowed, only hosts whose every address is a public one (checked after DNS resolution, at
registration and again at each delivery)."""
from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_URL_LENGTH = 2048
IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address


class UnsafeUrl(ValueError):
    """A URL the server refuses to call; the message says why (shown to the player)."""


@dataclass(frozen=True)
class Target:
    """Where a URL points: scheme, host name (for Host and TLS), port, path with query."""

    scheme: str
    host: str
    port: int
    path: str


def parse(url: str, *, allow_http: bool) -> Target:
    """The URL's parts, or UnsafeUrl: absolute http(s) URL with a host, no credentials."""
    if len(url) > MAX_URL_LENGTH:
        raise UnsafeUrl(f"must be at most {MAX_URL_LENGTH} characters")
    if any(c.isspace() or not c.isprintable() for c in url):
        raise UnsafeUrl("must not contain spaces or control characters")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as exc:
        raise UnsafeUrl(f"is not a valid URL ({exc})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise UnsafeUrl("must be an http or https URL")
    if scheme == "http" and not allow_http:
        raise UnsafeUrl("must be an https URL on this server")
    if not parts.hostname:
        raise UnsafeUrl("must name a host")
    if parts.username is not None or parts.password is not None:
        raise UnsafeUrl("must not contain a user name or password")
    if port == 0:  # (not a port a receiver listens on; `or` below would make it the default)
        raise UnsafeUrl("must not name port 0")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return Target(scheme, parts.hostname, port or (443 if scheme == "https" else 80), path)


NOT_GLOBAL = tuple(ipaddress.ip_network(n) for n in (
    "192.0.0.0/24",    # IETF protocol assignments (RFC 6890)
    "192.88.99.0/24",  # the deprecated 6to4 relay anycast (RFC 7526)
    "fec0::/10",       # IPv6 site-local (RFC 3879): a private network's, where still routed
    "3fff::/20",       # IPv6 documentation (RFC 9637)
))
"""Not public, whatever the running Python's `ipaddress` says (older versions call these
global)."""


def public(address: IPAddress) -> bool:
    """True for an address on the public internet: not private, loopback, link-local,
    multicast, reserved, unspecified or shared (nor an IPv6 form that embeds one), nor in
    NOT_GLOBAL."""
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:  # ::ffff:a.b.c.d is the IPv4 address itself
            return public(address.ipv4_mapped)
        embedded = address.sixtofour or (
            address.teredo[1] if address.teredo else None)
        if embedded is not None and not public(embedded):
            return False
    return (address.is_global and not address.is_multicast and not address.is_reserved
            and not address.is_link_local and not address.is_loopback
            and not any(address in network for network in NOT_GLOBAL))


def resolve(target: Target, *, allow_private: bool) -> list[IPAddress]:
    """The addresses to connect to, in the resolver's order; UnsafeUrl when the host does not
    resolve or, unless private addresses are allowed, when any address is not public."""
    try:
        infos = socket.getaddrinfo(target.host, target.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as exc:
        raise UnsafeUrl(f"host {target.host!r} does not resolve ({exc})") from None
    addresses: list[IPAddress] = []
    for info in infos:
        address = ipaddress.ip_address(str(info[4][0]).split("%", 1)[0])
        if address not in addresses:
            addresses.append(address)
    if not allow_private:
        refused = [str(a) for a in addresses if not public(a)]
        if refused:
            raise UnsafeUrl(f"host {target.host!r} resolves to an address that is not "
                            f"public ({', '.join(refused)})")
    if not addresses:
        raise UnsafeUrl(f"host {target.host!r} has no address")
    return addresses


def check(url: str, *, allow_http: bool, allow_private: bool) -> tuple[Target, list[IPAddress]]:
    """The target and its checked addresses, or UnsafeUrl."""
    target = parse(url, allow_http=allow_http)
    return target, resolve(target, allow_private=allow_private)
