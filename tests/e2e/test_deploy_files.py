"""deploy/: the container image definition and the Kubernetes manifests say what docs/deploy.md
promises, and agree with each other and with the server.

Neither Docker nor a cluster runs here (docs/deploy.md says so), so these read
the files: the Dockerfile's runtime stage is non-root with a gRPC health check
and turns on the HTTP listener on an exposed port, its build stage copies enough
to build the wheel (built here from exactly those files), and the manifests (read
by a small parser for the plain YAML they are written in; PyYAML is not a
dependency) probe the health lane over gRPC, serve HTTP on the port named `http`
(by the server's own variable), expose both ports through the Services, put the
example Ingress's TLS in front of the HTTP port, run non-root on a read-only root,
share one signing key from a Secret, and give the drain time to finish.
"""

from __future__ import annotations

import fnmatch
import re
import shlex
import shutil
import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path
from typing import Any

import pytest
from okey_server.rpc.config import DEFAULT_GRACE_S, load_config

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy"
K8S = DEPLOY / "k8s"
BUILD_DEADLINE_S = 180  # an upper bound for the wheel build, not a timing assertion


# --- the Dockerfile -------------------------------------------------------------------------

def dockerfile_stages() -> list[list[tuple[str, str]]]:
    """The Dockerfile's instructions (continuations joined), one list per FROM stage."""
    text = re.sub(r"\\\n", " ", (DEPLOY / "Dockerfile").read_text())
    stages: list[list[tuple[str, str]]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        instruction, _, argument = stripped.partition(" ")
        instruction = instruction.upper()
        if instruction == "FROM":
            stages.append([])
        if stages:
            stages[-1].append((instruction, argument.strip()))
    return stages


def instructions(stage: list[tuple[str, str]], name: str) -> list[str]:
    return [argument for instruction, argument in stage if instruction == name]


def env_of(stage: list[tuple[str, str]]) -> dict[str, str]:
    env: dict[str, str] = {}
    for argument in instructions(stage, "ENV"):
        for word in shlex.split(argument):
            key, _, value = word.partition("=")
            env[key] = value
    return env


def console_scripts() -> dict[str, str]:
    with (ROOT / "pyproject.toml").open("rb") as file:
        return dict(tomllib.load(file)["project"]["scripts"])


def runtime_uid() -> int:
    user = instructions(dockerfile_stages()[-1], "USER")
    assert len(user) == 1, "the runtime stage should set USER once"
    return int(user[0].split(":")[0])


def test_dockerfile_is_multi_stage_and_the_runtime_stage_runs_non_root() -> None:
    stages = dockerfile_stages()
    assert len(stages) >= 2, "a build stage and a runtime stage"
    runtime = stages[-1]
    # Numeric: Kubernetes' runAsNonRoot can only check a numeric user.
    assert runtime_uid() > 0
    # The image installs the built wheel only: no compiler, no sources.
    copies = instructions(runtime, "COPY")
    assert copies
    assert all(copy.startswith("--from=") for copy in copies), copies


def test_dockerfile_health_check_is_the_grpc_probe_on_the_exposed_port() -> None:
    runtime = dockerfile_stages()[-1]
    env = env_of(runtime)
    healthcheck = instructions(runtime, "HEALTHCHECK")
    assert len(healthcheck) == 1
    command = healthcheck[0].split("CMD", 1)[1]
    assert "okey-server-probe" in command
    assert console_scripts()["okey-server-probe"] == "okey_server.probe:main"
    # The probe's default address is 127.0.0.1:$OKEY_HEALTH_PORT: the image
    # turns the health lane on. The RPC port is the one exposed, on every interface.
    assert env["OKEY_HEALTH_PORT"] not in ("", env["OKEY_PORT"])
    assert load_config([], env=env).health_port == int(env["OKEY_HEALTH_PORT"])
    assert env["OKEY_PORT"] in exposed_ports()
    assert env["OKEY_HEALTH_PORT"] not in exposed_ports()  # the probe's, inside the container
    assert env["OKEY_HOST"] == "0.0.0.0"
    assert instructions(runtime, "ENTRYPOINT") == ['["okey-server"]']
    assert "okey-server" in console_scripts()
    # The key is given at run time, never baked into the image.
    assert "OKEY_SIGNING_KEY" not in env
    assert "OKEY_SIGNING_KEY" not in " ".join(instructions(runtime, "ARG"))


def exposed_ports() -> list[str]:
    """The runtime stage's EXPOSE ports, in order."""
    return [port for argument in instructions(dockerfile_stages()[-1], "EXPOSE")
            for port in argument.split()]


def test_dockerfile_turns_on_the_http_listener_on_an_exposed_port() -> None:
    # The variable is the server's own name for --http-port; the image serves HTTP on
    # every interface beside gRPC, and exposes exactly those two ports.
    env = env_of(dockerfile_stages()[-1])
    config = load_config([], env=env)
    assert config.http_port == int(env["OKEY_HTTP_PORT"])
    assert config.http_port not in (config.port, config.health_port)
    assert exposed_ports() == [env["OKEY_PORT"], env["OKEY_HTTP_PORT"]]
    assert config.http_cors_origins == ()  # no browser origin is baked into the image


def dockerignored(relative: str, patterns: list[str]) -> bool:
    """Whether .dockerignore keeps `relative` (or a folder above it) out of the context."""
    parts = relative.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for pattern in patterns:
        anywhere = pattern.removeprefix("**/")
        for prefix in prefixes:
            name = prefix.rsplit("/", 1)[-1]
            if fnmatch.fnmatchcase(prefix, pattern) or (
                pattern.startswith("**/") and fnmatch.fnmatchcase(name, anywhere)
            ):
                return True
    return False


def test_wheel_builds_from_what_the_build_stage_copies(tmp_path: Path) -> None:
    """The build stage's COPY lines, minus .dockerignore, are enough for the wheel: it carries
    the generated stubs, the server, the CLI and the probe's console script."""
    patterns = [
        line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    context = tmp_path / "context"
    build = dockerfile_stages()[0]
    copies = [shlex.split(argument) for argument in instructions(build, "COPY")]
    assert copies, "the build stage copies nothing"
    for words in copies:
        *sources, _destination = words
        for source in sources:
            path = ROOT / source.rstrip("/")
            assert path.exists(), f"COPY {source}: not in the repository"
            files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
            for file in files:
                relative = file.relative_to(ROOT).as_posix()
                if dockerignored(relative, patterns):
                    continue
                (context / relative).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(file, context / relative)
    assert not (context / "server" / "okey").exists(), ".dockerignore must keep stale stubs out"

    # The image's `pip wheel` resolves the build requirements from the index;
    # here .venv provides them (the same pins), so the test stays offline.
    wheels = tmp_path / "wheels"
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
         "--wheel-dir", str(wheels), str(context)],
        capture_output=True, text=True, timeout=BUILD_DEADLINE_S, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    (wheel,) = wheels.glob("okey_rules-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        entry_points = next(
            archive.read(name).decode() for name in names if name.endswith("entry_points.txt")
        )
    for module in ("okey/v1/game_pb2.py", "okey/v1/deal_pb2_grpc.py", "okey_server/main.py",
                   "okey_server/probe.py", "okey_rules/play/game.py", "okey_cli/main.py",
                   # The HTTP listener the image turns on, and its generated applications.
                   "okey_server/http/listener.py", "okey/v1/hand_connect.py"):
        assert module in names
    assert re.search(r"^okey-server-probe = okey_server\.probe:main$", entry_points, re.M)


# --- the Kubernetes manifests ---------------------------------------------------------------

class NotPlainYamlError(ValueError):
    """A manifest line outside the YAML subset PlainYaml reads."""


def _scalar(text: str) -> Any:
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "\"'":
        return text[1:-1]
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if text in {"true", "false"}:
        return text == "true"
    if text[0] in "[{&*!|>":
        raise NotPlainYamlError(f"not in the plain YAML subset these manifests use: {text!r}")
    return text


class PlainYaml:
    """Block mappings, block sequences and scalars: the YAML the manifests are written in.

    Anything else (flow collections, anchors, multi-line scalars) is refused
    rather than misread, so a manifest that drifts from the subset fails here.
    """

    def __init__(self, text: str) -> None:
        self.lines: list[tuple[int, str]] = []
        for raw in text.splitlines():
            stripped = raw.strip()
            if not stripped or stripped.startswith("#"):
                continue
            if "\t" in raw[: len(raw) - len(raw.lstrip())]:
                raise NotPlainYamlError("tab indentation")
            self.lines.append((len(raw) - len(raw.lstrip(" ")), stripped))

    def documents(self) -> list[Any]:
        documents: list[Any] = []
        index = 0
        while index < len(self.lines):
            if self.lines[index][1] == "---":
                index += 1
                continue
            value, index = self._block(index, self.lines[index][0])
            documents.append(value)
        return documents

    def _block(self, index: int, indent: int) -> tuple[Any, int]:
        if self.lines[index][1].startswith("- "):
            return self._sequence(index, indent)
        return self._mapping(index, indent)

    def _mapping(self, index: int, indent: int) -> tuple[dict[str, Any], int]:
        mapping: dict[str, Any] = {}
        while index < len(self.lines):
            at, text = self.lines[index]
            if at < indent or text == "---":
                break
            if at > indent or text.startswith("- "):
                raise NotPlainYamlError(f"unexpected line in a mapping: {text!r}")
            if text.endswith(":"):
                key, value = text[:-1], None
            else:
                key, separator, rest = text.partition(": ")
                if not separator:
                    raise NotPlainYamlError(f"not a `key: value` line: {text!r}")
                value = _scalar(rest.strip())
            if key in mapping:
                raise NotPlainYamlError(f"duplicate key {key!r}")
            index += 1
            if value is None:
                if index >= len(self.lines) or self.lines[index][0] <= indent:
                    raise NotPlainYamlError(f"{key!r} has no value")
                value, index = self._block(index, self.lines[index][0])
            mapping[key] = value
        return mapping, index

    def _sequence(self, index: int, indent: int) -> tuple[list[Any], int]:
        items: list[Any] = []
        while index < len(self.lines):
            at, text = self.lines[index]
            if at != indent or not text.startswith("- "):
                if at > indent:
                    raise NotPlainYamlError(f"unexpected line in a sequence: {text!r}")
                break
            rest = text[2:].strip()
            if rest.endswith(":") or ": " in rest:
                # `- key: value` opens a mapping whose keys line up after the dash.
                self.lines[index] = (indent + 2, rest)
                item, index = self._mapping(index, indent + 2)
            else:
                item, index = _scalar(rest), index + 1
            items.append(item)
        return items, index


def manifests() -> dict[str, dict[str, Any]]:
    """Every manifest in deploy/k8s by kind/name."""
    found: dict[str, dict[str, Any]] = {}
    for path in sorted(K8S.glob("*.yaml")):
        for document in PlainYaml(path.read_text()).documents():
            found[f"{document['kind']}/{document['metadata']['name']}"] = document
    return found


def test_plain_yaml_reader_refuses_what_it_does_not_understand() -> None:
    # The reader the checks below rest on: a misread manifest would pass them.
    assert PlainYaml("a:\n  b: 1\n  c:\n    - x\n    - y: \"2\"\n      z: true\n").documents() == [
        {"a": {"b": 1, "c": ["x", {"y": "2", "z": True}]}}
    ]
    for bad in ("a: [1, 2]\n", "a:\n  b: 1\n   c: 2\n", "a: 1\na: 2\n", "a:\n", "a: &x 1\n"):
        with pytest.raises(NotPlainYamlError):
            PlainYaml(bad).documents()


def pod_container() -> tuple[dict[str, Any], dict[str, Any], dict[str, Any]]:
    deployment = manifests()["Deployment/okey-server"]
    pod = deployment["spec"]["template"]["spec"]
    (container,) = pod["containers"]
    return deployment, pod, container


def container_env(container: dict[str, Any]) -> dict[str, Any]:
    return {entry["name"]: entry.get("value", entry.get("valueFrom")) for entry in container["env"]}


def container_ports(container: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {port["name"]: port for port in container["ports"]}


def test_deployment_probes_the_health_lane_over_grpc() -> None:
    _deployment, _pod, container = pod_container()
    ports = container_ports(container)
    port, health = ports["grpc"], ports["health"]
    env = container_env(container)
    assert port["containerPort"] == int(env["OKEY_PORT"])
    assert health["containerPort"] == int(env["OKEY_HEALTH_PORT"]) != port["containerPort"]
    assert env["OKEY_HOST"] == "0.0.0.0"
    for probe in ("readinessProbe", "livenessProbe"):
        # Native gRPC probes: grpc.health.v1 Check on the health lane (its own
        # RPC slots), which turns NOT_SERVING on drain.
        assert container[probe]["grpc"]["port"] == health["containerPort"], probe
        assert set(container[probe]) & {"httpGet", "tcpSocket", "exec"} == set(), probe
    # The Dockerfile's ports are the same ones.
    assert exposed_ports() == [str(port["containerPort"]), str(ports["http"]["containerPort"])]


def test_deployment_serves_http_on_the_port_named_http() -> None:
    """The HTTP port the pod declares is the one the server is told to serve, by the
    variable the server reads; probes stay on the health lane (above), not on it."""
    _deployment, _pod, container = pod_container()
    http = container_ports(container)["http"]
    env = container_env(container)
    plain = {name: value for name, value in env.items() if isinstance(value, str)}
    config = load_config([], env=plain)
    assert config.http_port == http["containerPort"] == int(env["OKEY_HTTP_PORT"])
    assert config.host == "0.0.0.0"
    assert http["protocol"] == "TCP"
    for probe in ("readinessProbe", "livenessProbe"):
        assert container[probe]["grpc"]["port"] != http["containerPort"], probe
    # The browser origins the manifest shows how to allow are read from that variable.
    assert "OKEY_HTTP_CORS_ORIGINS" in (K8S / "deployment.yaml").read_text()
    origins = load_config([], env={"OKEY_HTTP_CORS_ORIGINS": "https://table.example"})
    assert origins.http_cors_origins == ("https://table.example",)


def test_deployment_runs_non_root_on_a_read_only_root_as_the_image_user() -> None:
    _deployment, pod, container = pod_container()
    assert pod["securityContext"]["runAsNonRoot"] is True
    assert pod["securityContext"]["runAsUser"] == runtime_uid()
    assert container["securityContext"]["readOnlyRootFilesystem"] is True
    assert container["securityContext"]["allowPrivilegeEscalation"] is False
    assert container["securityContext"]["capabilities"]["drop"] == ["ALL"]
    for kind in ("requests", "limits"):
        assert {"cpu", "memory"} <= set(container["resources"][kind]), kind


def test_every_replica_reads_the_one_signing_key_from_the_secret() -> None:
    deployment, _pod, container = pod_container()
    assert deployment["spec"]["replicas"] == 2
    reference = container_env(container)["OKEY_SIGNING_KEY"]["secretKeyRef"]
    secret = manifests()[f"Secret/{reference['name']}"]
    assert reference["key"] in secret["stringData"]


def test_the_example_secret_cannot_be_deployed_as_it_is() -> None:
    # A placeholder the server refuses at start: pods crash-loop instead of
    # signing with a key published in this repository.
    example = manifests()["Secret/okey-signing-key"]["stringData"]["OKEY_SIGNING_KEY"]
    with pytest.raises(SystemExit) as refused:
        load_config([], env={"OKEY_SIGNING_KEY": example})
    assert refused.value.code == 2


def test_termination_grace_covers_the_pre_stop_pause_and_the_drain() -> None:
    _deployment, pod, container = pod_container()
    command = container["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pause = int(command[1])
    assert pause > 0, "a pause so the endpoint is removed before the drain"
    grace = float(container_env(container).get("OKEY_GRACE", DEFAULT_GRACE_S))
    assert pod["terminationGracePeriodSeconds"] > pause + grace


def service_targets(service: dict[str, Any], container: dict[str, Any]
                    ) -> dict[str, tuple[dict[str, Any], dict[str, Any]]]:
    """Each Service port by name, with the container port it targets."""
    by_name = container_ports(container)
    by_number = {port["containerPort"]: port for port in container["ports"]}
    targets = {}
    for service_port in service["spec"]["ports"]:
        target = service_port["targetPort"]
        targeted = by_name.get(target) if isinstance(target, str) else by_number.get(target)
        assert targeted is not None, f"{service['metadata']['name']}: no container port {target}"
        targets[service_port["name"]] = (service_port, targeted)
    return targets


def test_services_select_the_pods_and_target_the_grpc_and_http_ports() -> None:
    found = manifests()
    _deployment, pod, container = pod_container()
    labels = found["Deployment/okey-server"]["spec"]["template"]["metadata"]["labels"]
    services = [document for key, document in found.items() if key.startswith("Service/")]
    assert {service["metadata"]["name"] for service in services} == {
        "okey-server", "okey-server-headless"}
    for service in services:
        assert service["spec"]["selector"].items() <= labels.items()
        targets = service_targets(service, container)
        assert set(targets) == {"grpc", "http"}
        grpc_port, grpc_target = targets["grpc"]
        assert grpc_target["name"] == "grpc"
        assert grpc_port["appProtocol"] == "grpc"
        # HTTP/1.1 to the pods: every Connect and gRPC-Web call fits it.
        http_port, http_target = targets["http"]
        assert http_target["name"] == "http"
        assert http_port["appProtocol"] == "http"
    headless = found["Service/okey-server-headless"]
    assert headless["spec"]["clusterIP"] == "None"  # DNS lists every pod: client round_robin
    assert pod["automountServiceAccountToken"] is False


def test_the_example_ingress_terminates_tls_in_front_of_the_http_port() -> None:
    found = manifests()
    ingress = found["Ingress/okey-server-http"]
    assert ingress["apiVersion"] == "networking.k8s.io/v1"
    spec = ingress["spec"]
    (tls,) = spec["tls"]
    assert tls["secretName"]
    (rule,) = spec["rules"]
    assert rule["host"] in tls["hosts"], "the certificate must cover the host it serves"
    (path,) = rule["http"]["paths"]
    assert (path["path"], path["pathType"]) == ("/", "Prefix")  # the methods and the web table
    backend = path["backend"]["service"]
    service = found[f"Service/{backend['name']}"]
    _deployment, _pod, container = pod_container()
    _service_port, target = service_targets(service, container)[backend["port"]["name"]]
    assert target["name"] == "http"
    # Portable: no controller's annotations (CORS, limits) that would override the server's.
    assert "annotations" not in ingress["metadata"]


def test_autoscaler_scales_the_deployment_on_cpu() -> None:
    found = manifests()
    hpa = found["HorizontalPodAutoscaler/okey-server"]
    assert hpa["apiVersion"] == "autoscaling/v2"
    target = hpa["spec"]["scaleTargetRef"]
    assert f"{target['kind']}/{target['name']}" in found
    (metric,) = hpa["spec"]["metrics"]
    assert metric["resource"]["name"] == "cpu"
    assert metric["resource"]["target"]["type"] == "Utilization"
    # Utilization is relative to the CPU request, which must therefore be set.
    _deployment, _pod, container = pod_container()
    assert "cpu" in container["resources"]["requests"]
    assert hpa["spec"]["minReplicas"] >= found[f"Deployment/{target['name']}"]["spec"]["replicas"]
