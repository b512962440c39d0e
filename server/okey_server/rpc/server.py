"""Server wiring: `create_server` builds the grpc.aio server with services, health, reflection."""

from __future__ import annotations

import asyncio
import dataclasses
import time
from typing import TYPE_CHECKING, Any, cast

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_health.v1._async import HealthServicer
from okey.v1 import (
    analysis_pb2,
    analysis_pb2_grpc,
    deal_pb2,
    deal_pb2_grpc,
    game_pb2,
    game_pb2_grpc,
    hand_pb2,
    hand_pb2_grpc,
    scoring_pb2,
    scoring_pb2_grpc,
)

from okey_server.rpc.config import Config
from okey_server.rpc.reflection import enable_reflection
from okey_server.rpc.rpc_wrapper import Activity, RpcWrapperInterceptor
from okey_server.services.analysis_servicer import AnalysisServicer
from okey_server.services.deal_servicer import DealServicer
from okey_server.services.game_servicer import GameServicer
from okey_server.services.hand_servicer import HandServicer
from okey_server.services.scoring_servicer import ScoringServicer

if TYPE_CHECKING:
    from okey_server.rpc.metrics import RpcMetrics

SERVICES = (
    hand_pb2.DESCRIPTOR.services_by_name["HandService"].full_name,
    deal_pb2.DESCRIPTOR.services_by_name["DealService"].full_name,
    game_pb2.DESCRIPTOR.services_by_name["GameService"].full_name,
    scoring_pb2.DESCRIPTOR.services_by_name["ScoringService"].full_name,
    analysis_pb2.DESCRIPTOR.services_by_name["AnalysisService"].full_name,
)
# Draining, the server keeps answering until no unary RPC has run for this
# long: calls a client sent just before the signal may not have reached a
# handler yet, and grpc's own stop would cancel those.
QUIET_S = 0.25
# The drain's last step refuses new calls until none has arrived for this long
# (gRPC core's queue is then empty: the server takes queued calls one after
# another), for at most FLUSH_MAX_S.
FLUSH_QUIET_S = 0.05
FLUSH_MAX_S = 1.0

# Connection keepalive (docs/operations.md, "Keepalive"). L4 load balancers
# and NAT drop a connection that is silent for a few minutes (Azure's default
# 4 min, AWS NLB 350 s) without telling either end; mobile networks do too.
# The server pings a quiet connection every 2 min, under those timeouts, and
# closes it when the ping goes 20 s unanswered.
KEEPALIVE_TIME_MS = 120_000
KEEPALIVE_TIMEOUT_MS = 20_000
# Clients may ping this often on an idle connection (gRPC's default is 5 min,
# and a client pinging faster is sent GOAWAY "too_many_pings"): 20 s lets a
# client keep its own connection alive through a balancer with 30-60 s pings.
MIN_CLIENT_PING_INTERVAL_MS = 20_000
# Pings that come too soon before the connection is closed with GOAWAY
# ENHANCE_YOUR_CALM "too_many_pings": gRPC's own default, stated so that it is
# visibly part of the server's defences (docs/operations.md, "Misbehaving
# clients"). Sending data or headers on the connection wipes the count.
MAX_PING_STRIKES = 2
# A connection with no call for 5 min is closed (GOAWAY; the client reconnects
# on its next call): idle phones hold no server resources.
MAX_CONNECTION_IDLE_MS = 300_000
# Every connection is closed --max-connection-age (30 s) after it opened, then
# its calls in flight get this long (half the age if that is shorter) to end:
# calls take milliseconds, and a stream still open after it (a health Watch, a
# client that never reads its answer) is cut, so no stream holds an RPC slot
# longer than age + grace.
# Behind an L4 balancer, or with --processes (the kernel spreads connections,
# not calls), reconnecting is also what moves clients to a new or restarted
# process.
MAX_CONNECTION_AGE_GRACE_MS = 10_000
# The health lane (--health-port) serves probes: a few calls at a time, each
# from its own connection. Bounded, so that a flood of it cannot cost much.
HEALTH_LANE_MAX_RPCS = 64
HEALTH_LANE_STREAMS_PER_CONNECTION = 4


class ServedHealth:
    """The health service as served: the asyncio servicer's Check and Watch, and a List.

    grpcio-health-checking's asyncio servicer inherits List from the generated
    base class, a plain function that answers UNIMPLEMENTED; the RPC wrapper
    serves `async def` methods only, so every List call came back UNKNOWN.
    """

    def __init__(self, servicer: HealthServicer, names: tuple[str, ...]) -> None:
        self._servicer = servicer
        self._names = names
        self.Check = servicer.Check
        self.Watch = servicer.Watch

    async def List(  # noqa: N802 (the RPC's name)
        self, _request: Any, context: grpc.aio.ServicerContext[Any, Any]
    ) -> Any:
        """Every service the server reports on, with its status now (NOT_SERVING once draining)."""
        # Any: types-grpcio-health-checking predates the List RPC (no HealthList* messages).
        answer = health_pb2.HealthListResponse()  # type: ignore[attr-defined]  # see above
        for name in self._names:
            checked = await self._servicer.Check(health_pb2.HealthCheckRequest(service=name),
                                                 context)
            answer.statuses[name].status = checked.status
        return answer


class ServerStartError(RuntimeError):
    """The server could not bind its address."""


def server_options(config: Config, reuse_port: bool = False) -> tuple[tuple[str, int], ...]:
    """grpc channel arguments for the server.

    SO_REUSEPORT is off unless several processes share the port on purpose:
    otherwise a second server on a busy port would bind silently (gRPC turns
    it on by default).

    BDP probing is off: with it, gRPC widens each stream's flow-control window
    until a client can push whole multi-megabyte messages, which the server
    buffers before it sees they are over the receive limit (measured: 256
    refused 4 MiB requests took it from 49 to 243-278 MB; without, it stayed at
    50 MB). The fixed 64 KiB window holds the largest real request whole.

    `grpc.max_concurrent_streams` is HTTP/2's per-connection cap: a client's
    gRPC library queues its calls beyond it, and gRPC core refuses a stream
    past it (REFUSED_STREAM, which clients retry), counting reset streams
    until their handlers have finished (core's overload protection, on by
    default), which bounds what rapid resets can start.
    """
    return (
        ("grpc.so_reuseport", int(reuse_port)),
        ("grpc.max_receive_message_length", config.max_receive_bytes),
        ("grpc.http2.bdp_probe", 0),
        ("grpc.max_concurrent_streams", config.max_streams_per_connection),
        ("grpc.keepalive_time_ms", KEEPALIVE_TIME_MS),
        ("grpc.keepalive_timeout_ms", KEEPALIVE_TIMEOUT_MS),
        # Pings go on while a call is open but quiet (a health Watch), and
        # clients may ping a connection with no call (mobile keepalive).
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.max_pings_without_data", 0),
        ("grpc.http2.min_ping_interval_without_data_ms", MIN_CLIENT_PING_INTERVAL_MS),
        ("grpc.http2.max_ping_strikes", MAX_PING_STRIKES),
        ("grpc.max_connection_idle_ms", MAX_CONNECTION_IDLE_MS),
        ("grpc.max_connection_age_ms", round(config.max_connection_age_s * 1000)),
        ("grpc.max_connection_age_grace_ms", connection_age_grace_ms(config)),
    )


def connection_age_grace_ms(config: Config) -> int:
    """MAX_CONNECTION_AGE_GRACE_MS, or half the connection age when that is shorter."""
    return min(MAX_CONNECTION_AGE_GRACE_MS, round(config.max_connection_age_s * 500))


def server_credentials(config: Config) -> grpc.ServerCredentials | None:
    """TLS credentials from the config, or None for plaintext.

    With a client CA the server asks for and requires a client certificate
    that CA signed (mutual TLS).
    """
    if config.tls_cert is None or config.tls_key is None:
        return None
    return grpc.ssl_server_credentials(
        [(config.tls_key, config.tls_cert)],
        root_certificates=config.tls_client_ca,
        require_client_auth=config.tls_client_ca is not None,
    )


def make_servicers(config: Config) -> dict[str, object]:
    """One servicer object per okey.v1 service, by the service's short name: the gRPC server
    and the HTTP listener (okey_server.http) serve the same objects."""
    return {
        "HandService": HandServicer(config),
        "DealService": DealServicer(config),
        "GameService": GameServicer(config),
        "ScoringService": ScoringServicer(config),
        "AnalysisService": AnalysisServicer(config),
    }


async def create_server(
    address: str,
    config: Config,
    health_servicer: HealthServicer | None = None,
    activity: Activity | None = None,
    reuse_port: bool = False,
    *,
    metrics: RpcMetrics | None = None,
    servicers: dict[str, object] | None = None,
) -> tuple[grpc.aio.Server, int]:
    """A grpc.aio server bound to `address` (``host:port``, port 0 = any), not yet started.

    Call it from the event loop that will run the server. Handlers are
    coroutines on that loop: CPU-bound and short, they cost least there (no
    thread handoffs); a process scales with more processes, not threads.

    Returns the server and the port it bound. Health reports SERVING for ""
    and each service. Pass `health_servicer` and `activity` to `drain` it later.
    With `metrics` (okey_server.rpc.metrics) every RPC is counted and timed there.
    `servicers` (`make_servicers`) are the objects to serve, made here if not given.
    """
    interceptor = RpcWrapperInterceptor(
        activity, metrics, receive_timeout_s=config.receive_timeout_s
    )
    server = grpc.aio.server(
        interceptors=(interceptor,),
        options=server_options(config, reuse_port),
        maximum_concurrent_rpcs=config.max_concurrent_rpcs,
    )
    served = servicers if servicers is not None else make_servicers(config)
    hand_pb2_grpc.add_HandServiceServicer_to_server(served["HandService"], server)
    deal_pb2_grpc.add_DealServiceServicer_to_server(served["DealService"], server)
    game_pb2_grpc.add_GameServiceServicer_to_server(served["GameService"], server)
    scoring_pb2_grpc.add_ScoringServiceServicer_to_server(served["ScoringService"], server)
    analysis_pb2_grpc.add_AnalysisServiceServicer_to_server(served["AnalysisService"], server)
    health_servicer = health_servicer or HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(
        # Duck-typed: the registration reads only Check, Watch and List.
        cast(health_pb2_grpc.HealthServicer, ServedHealth(health_servicer, ("", *SERVICES))),
        server,
    )
    for name in ("", *SERVICES):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    enable_reflection((*SERVICES, health.SERVICE_NAME), server)
    port = await _listen(server, address, config)
    return server, port


async def create_health_server(
    config: Config,
    health_servicer: HealthServicer,
    reuse_port: bool = False,
    *,
    metrics: RpcMetrics | None = None,
) -> tuple[grpc.aio.Server, int]:
    """The health lane: grpc.health.v1 alone, plaintext, on ``config.host:config.health_port``.

    A server of its own, with its own RPC slots and its own queue in gRPC
    core: RPCs on the main port, however many or stuck, never delay a probe
    here, and it is never shed. It shares `health_servicer` with the main
    server, so it answers NOT_SERVING once that one drains. Plaintext whatever
    the main port speaks: Kubernetes' gRPC probes cannot talk TLS, and health
    status is no secret.
    """
    assert config.health_port is not None
    lane = dataclasses.replace(
        config,
        max_streams_per_connection=HEALTH_LANE_STREAMS_PER_CONNECTION,
        max_receive_bytes=4096,  # a HealthCheckRequest is a service name
    )
    interceptor = RpcWrapperInterceptor(
        Activity(), metrics, receive_timeout_s=config.receive_timeout_s
    )
    server = grpc.aio.server(
        interceptors=(interceptor,),
        options=server_options(lane, reuse_port),
        maximum_concurrent_rpcs=HEALTH_LANE_MAX_RPCS,
    )
    health_pb2_grpc.add_HealthServicer_to_server(
        # Duck-typed: the registration reads only Check, Watch and List.
        cast(health_pb2_grpc.HealthServicer, ServedHealth(health_servicer, ("", *SERVICES))),
        server,
    )
    host = config.address.rpartition(":")[0]
    port = await _listen(server, f"{host}:{config.health_port}", None)
    return server, port


async def _listen(server: grpc.aio.Server, address: str, config: Config | None) -> int:
    """Binds `address` (TLS if `config` says so; None: plaintext); the port, or ServerStartError."""
    try:
        credentials = None if config is None else server_credentials(config)
        if credentials is None:
            port = server.add_insecure_port(address)
        else:
            port = server.add_secure_port(address, credentials)
    except RuntimeError as exc:  # grpc raises instead of returning 0
        await server.stop(None)
        raise ServerStartError(f"cannot listen on {address}: {exc}") from exc
    if port == 0:
        await server.stop(None)
        raise ServerStartError(f"cannot listen on {address} (in use or not a local address?)")
    return int(port)


async def drain(
    server: grpc.aio.Server,
    health_servicer: HealthServicer,
    activity: Activity,
    grace_s: float,
    quiet_s: float = QUIET_S,
) -> None:
    """Graceful stop within `grace_s`: health NOT_SERVING, then in-flight RPCs finish.

    First the server goes on answering, health NOT_SERVING, until it has been
    idle for `quiet_s` (at most half the grace): calls already sent are then
    handled, not cancelled by grpc's stop. Then, for a moment, it answers new
    calls UNAVAILABLE without handling them (`Activity.refusing`), until none
    has come for FLUSH_QUIET_S: under load gRPC core holds calls the server has
    not taken yet, and grpc's stop cancels those, which clients see as
    CANCELLED (a code most retry policies treat as final); refused, they are
    UNAVAILABLE, which clients retry. Then grpc stops it: new calls are
    refused (GOAWAY) and those still running get the rest of the grace.
    """
    loop = asyncio.get_running_loop()
    deadline = loop.time() + grace_s
    since = time.perf_counter()
    await health_servicer.enter_graceful_shutdown()
    settle_until = loop.time() + grace_s / 2
    while activity.idle_for(since) < quiet_s and loop.time() < settle_until:
        await asyncio.sleep(quiet_s / 4)
    activity.refusing = True
    flush_until = loop.time() + min(FLUSH_MAX_S, max(deadline - loop.time(), 0.0) / 2)
    while (time.perf_counter() - activity.arrived < FLUSH_QUIET_S
           and loop.time() < flush_until):
        await asyncio.sleep(FLUSH_QUIET_S / 4)
    await server.stop(max(deadline - loop.time(), 0.0))
