"""grpc.health.v1 Health/List: a snapshot of every service's status, never UNKNOWN.

grpcio-health-checking's asyncio servicer leaves List unwritten (a plain
function), which the RPC wrapper refuses: every List call was UNKNOWN until
the server served its own (found by tests/fuzz).
"""

from __future__ import annotations

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from okey_server.rpc.rpc_wrapper import Activity
from okey_server.rpc.server import SERVICES, drain

pytestmark = pytest.mark.service

OPTIONS = (("grpc.so_reuseport", 0),)


def test_health_list_names_every_service_serving(channel: grpc.Channel) -> None:
    answer = health_pb2_grpc.HealthStub(channel).List(health_pb2.HealthListRequest(), timeout=10)
    assert set(answer.statuses) == {"", *SERVICES}
    assert {s.status for s in answer.statuses.values()} == {health_pb2.HealthCheckResponse.SERVING}


def test_health_list_reports_not_serving_once_draining(make_server, loop_thread) -> None:
    health_servicer = HealthServicer()
    activity = Activity()
    server, port = make_server(health_servicer=health_servicer, activity=activity)
    loop_thread.run(health_servicer.enter_graceful_shutdown())
    with grpc.insecure_channel(f"127.0.0.1:{port}", options=OPTIONS) as opened:
        answer = health_pb2_grpc.HealthStub(opened).List(health_pb2.HealthListRequest(), timeout=10)
    loop_thread.run(drain(server, health_servicer, activity, grace_s=0.5))
    assert set(answer.statuses) == {"", *SERVICES}
    assert {s.status for s in answer.statuses.values()} == {
        health_pb2.HealthCheckResponse.NOT_SERVING
    }
