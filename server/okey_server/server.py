"""Server wiring: `create_server` builds the gRPC server with services, health, reflection."""

from __future__ import annotations

from concurrent import futures
from types import ModuleType

import grpc
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from okey.v1 import deal_pb2, deal_pb2_grpc

from okey_server.aio_wrapper import AioRpcWrapperInterceptor
from okey_server.config import Config
from okey_server.deal_servicer import DealServicer
from okey_server.hand_servicer import HandServicer, add_hand_service
from okey_server.loop_server import LoopServer

# One process per port: without this a second server on a busy port binds
# silently (gRPC turns SO_REUSEPORT on by default). See DESIGN.md.
SERVER_OPTIONS = (("grpc.so_reuseport", 0),)


class ServerStartError(RuntimeError):
    """The server could not bind its address."""


def _add(server: grpc.aio.Server, pb2: ModuleType, pb2_grpc: ModuleType, servicer: object) -> str:
    """Registers `servicer` for the service of `pb2` it implements; returns its full name."""
    for service in pb2.DESCRIPTOR.services_by_name.values():
        if isinstance(servicer, getattr(pb2_grpc, f"{service.name}Servicer")):
            getattr(pb2_grpc, f"add_{service.name}Servicer_to_server")(servicer, server)
            return str(service.full_name)
    raise TypeError(f"{type(servicer).__name__} implements no service of {pb2.__name__}")


def register_services(server: grpc.aio.Server, config: Config) -> list[str]:
    """Adds every okey.v1 service, one line each; returns their full names."""
    return [
        add_hand_service(server, HandServicer(config)),
        _add(server, deal_pb2, deal_pb2_grpc, DealServicer(config)),
    ]


def create_server(
    address: str, config: Config, health_servicer: health.HealthServicer | None = None
) -> tuple[LoopServer, int]:
    """A gRPC server bound to `address` (``host:port``, port 0 = any), not yet started.

    A grpc.aio server on its own event-loop thread, started and stopped like a
    sync one. Handlers run on the loop thread (``config.workers == 1``, the
    default: measured fastest for these CPU-bound handlers, no GIL handoffs)
    or in a pool of ``config.workers`` threads.

    Returns the server and the port it bound. Health reports SERVING for ""
    and each service: a health check can only arrive after `start()`, by which
    time everything is registered. Pass `health_servicer` to drain it later.
    """
    pool = None
    if config.workers > 1:
        pool = futures.ThreadPoolExecutor(config.workers, thread_name_prefix="okey-rpc")
    health_servicer = health_servicer or health.HealthServicer()

    def build() -> grpc.aio.Server:
        server = grpc.aio.server(
            interceptors=(AioRpcWrapperInterceptor(pool),), options=SERVER_OPTIONS
        )
        names = register_services(server, config)
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        for name in ("", *names):
            health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
        reflection.enable_server_reflection(
            (*names, health.SERVICE_NAME, reflection.SERVICE_NAME), server
        )
        return server

    server = LoopServer(build, on_stop=pool.shutdown if pool is not None else None)
    try:
        port = server.add_insecure_port(address)
    except RuntimeError as exc:  # grpc raises instead of returning 0
        server.stop(0).wait()
        raise ServerStartError(f"cannot listen on {address}: {exc}") from exc
    if port == 0:
        server.stop(0).wait()
        raise ServerStartError(f"cannot listen on {address} (in use or not a local address?)")
    return server, port


def drain(server: LoopServer, health_servicer: health.HealthServicer, grace_s: float) -> None:
    """Graceful stop: health NOT_SERVING, new RPCs refused, in-flight ones get `grace_s`."""
    health_servicer.enter_graceful_shutdown()
    server.stop(grace_s).wait()
