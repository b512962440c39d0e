"""Reading a Prometheus /metrics page in tests: every sample by name, and one sample's value."""

from __future__ import annotations

import socket
import urllib.request

from prometheus_client.parser import text_string_to_metric_families

Samples = dict[str, list[tuple[dict[str, str], float]]]


def scrape(url: str) -> Samples:
    """Every sample of the exposition at `url`, by sample name: (labels, value) pairs."""
    with urllib.request.urlopen(url, timeout=10) as response:
        assert response.status == 200
        text = response.read().decode()
    samples: Samples = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            samples.setdefault(sample.name, []).append((dict(sample.labels), sample.value))
    return samples


def value(samples: Samples, name: str, **labels: str) -> float:
    """The one sample `name` whose labels include `labels` (0 when there is none)."""
    found = [v for got, v in samples.get(name, []) if labels.items() <= got.items()]
    assert len(found) <= 1, (name, labels, found)
    return found[0] if found else 0.0


def free_port(host: str = "127.0.0.1") -> int:
    """A port nothing listens on right now (for a flag that does not take 0)."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        return int(probe.getsockname()[1])


def listening_ports(pid: int) -> set[int]:
    """The TCP ports process `pid` listens on (Linux: its socket inodes in /proc/net/tcp*)."""
    import os

    inodes = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        try:
            target = os.readlink(f"/proc/{pid}/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    ports = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as rows:
                next(rows)
                for row in rows:
                    fields = row.split()
                    if fields[3] == "0A" and fields[9] in inodes:  # 0A: LISTEN
                        ports.add(int(fields[1].rsplit(":", 1)[1], 16))
        except FileNotFoundError:
            continue
    return ports
