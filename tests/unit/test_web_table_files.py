"""The web table's files as the HTTP listener serves them (okey_server.web_table): only
built files, each with its content type; hashed assets cached for good, pages revalidated;
HEAD without a body; nothing served for an RPC path or when the page was not built."""

from __future__ import annotations

import asyncio
import fnmatch
import tomllib
from pathlib import Path
from typing import Any

from okey_server import web_table


def _built(root: Path) -> Path:
    (root / "assets").mkdir(parents=True)
    (root / "index.html").write_text("<!doctype html><title>t</title>")
    (root / "check.html").write_text("<!doctype html><title>c</title>")
    (root / "assets" / "index-AbC123.js").write_text("console.log(1)")
    (root / "assets" / "index-AbC123.css").write_text("body{}")
    (root / "notes.txt").write_text("not a page")
    return root


def _get(table: web_table.WebTable, method: str, path: str) -> tuple[int, dict[str, str], bytes]:
    sent: list[dict[str, Any]] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    asyncio.run(table.serve(method, path, send))
    start, body = sent
    headers = {k.decode(): v.decode() for k, v in start["headers"]}
    return start["status"], headers, body["body"]


def test_the_root_is_index_html_revalidated_each_time(tmp_path):
    table = web_table.WebTable(web_table.load(_built(tmp_path)))
    status, headers, body = _get(table, "GET", "/")
    assert status == 200
    assert headers["content-type"] == "text/html; charset=utf-8"
    assert headers["cache-control"] == "no-cache"
    assert headers["x-content-type-options"] == "nosniff"
    assert body == (tmp_path / "index.html").read_bytes()


def test_hashed_assets_have_their_content_type_and_are_cached_for_good(tmp_path):
    table = web_table.WebTable(web_table.load(_built(tmp_path)))
    _, script, _ = _get(table, "GET", "/assets/index-AbC123.js")
    _, style, _ = _get(table, "GET", "/assets/index-AbC123.css")
    assert script["content-type"] == "text/javascript; charset=utf-8"
    assert style["content-type"] == "text/css; charset=utf-8"
    forever = "public, max-age=31536000, immutable"
    assert script["cache-control"] == style["cache-control"] == forever


def test_head_answers_the_headers_without_the_body(tmp_path):
    table = web_table.WebTable(web_table.load(_built(tmp_path)))
    status, headers, body = _get(table, "HEAD", "/check.html")
    assert status == 200
    assert int(headers["content-length"]) == len((tmp_path / "check.html").read_bytes())
    assert body == b""


def test_only_built_pages_and_assets_are_owned_never_an_rpc_path(tmp_path):
    table = web_table.WebTable(web_table.load(_built(tmp_path)))
    assert table.owns("GET", "/")
    assert table.owns("HEAD", "/assets/index-AbC123.js")
    assert not table.owns("POST", "/")
    assert not table.owns("GET", "/notes.txt")  # no known content type: not served
    assert not table.owns("GET", "/../pyproject.toml")
    assert not table.owns("GET", "/okey.v1.HandService/CheckHand")
    assert not table.owns("GET", "/grpc.health.v1.Health/Check")


def test_an_unbuilt_page_serves_nothing(tmp_path):
    table = web_table.WebTable(web_table.load(tmp_path / "missing"))
    assert not table.owns("GET", "/")


def test_the_package_data_ships_every_built_file():
    """pyproject's package data for okey_server covers each file of web_static."""
    root = Path(__file__).resolve().parents[2]
    config = tomllib.loads((root / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["okey_server"]
    built = [p.relative_to(web_table.STATIC_DIR.parent).as_posix()
             for p in web_table.STATIC_DIR.rglob("*") if p.is_file()]
    assert built, "server/okey_server/web_static is empty: run `make web`"
    assert all(any(fnmatch.fnmatch(name, pattern) for pattern in patterns) for name in built)
