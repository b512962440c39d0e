"""The okey.v1 services over HTTP (``--http-port``): the Connect protocol (JSON and binary)
and gRPC-Web, served beside the gRPC listener by the same servicer objects.

`listener` runs hypercorn in the server's event loop; `app` is the ASGI application
(routing, CORS, drain, limits, the call log); `adapter` lets each generated Connect
application (okey/v1/*_connect.py) call a gRPC servicer; `codecs` and `errors`
translate messages and errors. Nothing here judges a request: the servicers do.
"""
