"""Which webhook URLs and addresses the server will call (app/webhooks/urls.py)."""
from __future__ import annotations

import ipaddress

import pytest

from app.webhooks.urls import UnsafeUrl, check, parse, public


@pytest.mark.parametrize("address", [
    "127.0.0.1", "127.8.9.10", "10.0.0.1", "172.16.5.4", "192.168.1.1", "169.254.169.254",
    "100.64.0.1", "0.0.0.0", "224.0.0.251", "239.255.255.250", "240.0.0.1",
    "255.255.255.255", "192.0.2.1", "198.18.0.1",
    "::1", "::", "fe80::1", "fc00::1", "fd12:3456::1", "ff02::1", "2001:db8::1",
    "::ffff:127.0.0.1", "::ffff:10.0.0.1", "2002:7f00:1::1", "2002:a00:1::1",
    # what older Pythons' ipaddress calls global: IPv6 site-local (a private network's
    # addresses where still routed), IETF protocol assignments, the deprecated 6to4
    # relay anycast, IPv6 documentation (RFC 9637)
    "fec0::1", "feff::1", "192.0.0.8", "192.0.0.1", "192.88.99.1", "3fff::1",
    "::ffff:192.0.0.8", "2002:c000:8::1",
])
def test_addresses_that_are_not_public(address: str) -> None:
    assert not public(ipaddress.ip_address(address))


@pytest.mark.parametrize("address", ["8.8.8.8", "1.1.1.1", "93.184.216.34",
                                     "2606:4700:4700::1111", "::ffff:8.8.8.8"])
def test_public_addresses(address: str) -> None:
    assert public(ipaddress.ip_address(address))


def test_parse_keeps_the_host_port_and_path() -> None:
    target = parse("https://Hooks.Example:8443/in/x?a=1#frag", allow_http=False)
    assert (target.scheme, target.host, target.port, target.path) == (
        "https", "hooks.example", 8443, "/in/x?a=1")
    assert parse("http://[::1]/", allow_http=True).host == "::1"
    assert parse("http://h.example", allow_http=True).path == "/"
    assert parse("http://h.example", allow_http=True).port == 80


@pytest.mark.parametrize("url", ["http://h.example/", "ftp://h.example/", "//h.example/",
                                 "https://u@h.example/", "https://h.example:0x50/",
                                 "https://h.example/\x00", "https:///x",
                                 "https://h.example:0/", "https://8.8.8.8:00/"])
def test_parse_refuses(url: str) -> None:
    with pytest.raises(UnsafeUrl):
        parse(url, allow_http=False)


def test_a_name_that_resolves_to_loopback_is_refused_unless_allowed() -> None:
    with pytest.raises(UnsafeUrl, match="not public"):
        check("https://localhost/hook", allow_http=False, allow_private=False)
    _, addresses = check("https://localhost/hook", allow_http=False, allow_private=True)
    assert all(a.is_loopback for a in addresses)
