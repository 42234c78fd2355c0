"""The emulated device's filesystem and shell: a host directory standing in for the device root.

With bubblewrap the sandbox's data/ is bound at /data, its tools at /system/bin (a phone) or
/usr/local/bin (a Linux board), and a fake /proc/cpuinfo over the real one. Without bubblewrap,
device paths in commands are rewritten into the sandbox directory instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

PHONE_PROPS = {
    "ro.product.model": "Pixel 7",
    "ro.product.name": "panther",
    "ro.product.device": "panther",
    "ro.product.manufacturer": "Google",
    "ro.board.platform": "gs201",
    "ro.soc.model": "Tensor G2",
    "ro.build.version.release": "14",
    "ro.build.version.sdk": "34",
    "ro.product.cpu.abi": "arm64-v8a",
}

BOARD_CPUINFO = """processor\t: 0
BogoMIPS\t: 108.00
Features\t: fp asimd evtstrm crc32 cpuid
CPU implementer\t: 0x41
CPU part\t: 0xd08
processor\t: 1
BogoMIPS\t: 108.00
CPU part\t: 0xd08
Hardware\t: BCM2835
Revision\t: c03114
Model\t\t: Raspberry Pi 4 Model B Rev 1.4
"""

# what a phone's toybox offers (host binaries linked under /system/bin); no python3 on a phone
_PHONE_TOOLS = (
    "sh ls cat rm mkdir chmod cp mv uname echo sleep kill id stat wc head tail grep sed cut tr "
    "date env test true false readlink dirname basename printf nproc find touch sort uniq md5sum "
    "sha256sum xargs awk timeout"
).split()


class DeviceSandbox:
    """A device root on the host: ``data/local/tmp``, ``tools/`` (getprop or python3), fake /proc files."""

    def __init__(
        self, root: Path, *, kind: str = "phone", props: dict | None = None, python: str | None = None
    ):
        if kind not in ("phone", "board"):
            raise ValueError(kind)
        self.root = Path(root)
        self.kind = kind
        self.props = dict(PHONE_PROPS if props is None else props)
        self.python = python or sys.executable
        self.use_bwrap = bwrap_works()
        self.tools = self.root / "tools"
        for folder in ("data/local/tmp", "tools", "proc"):
            (self.root / folder).mkdir(parents=True, exist_ok=True)
        (self.root / "proc" / "cpuinfo").write_text(BOARD_CPUINFO)
        self._make_sys()
        self._make_tools()

    @property
    def tools_mount(self) -> str:
        return "/system/bin" if self.kind == "phone" else "/usr/local/bin"

    def add_tool(self, name: str, text: str) -> Path:
        """Install an executable script on the device's PATH (e.g. a fake benchmark_model)."""
        path = self.tools / name
        path.write_text(text)
        path.chmod(0o755)
        return path

    def _make_tools(self) -> None:
        if self.kind == "phone":
            for tool in _PHONE_TOOLS:
                found = shutil.which(tool, path="/usr/bin:/bin")
                if found and not (self.tools / tool).exists():
                    (self.tools / tool).symlink_to(found)
            (self.root / "build.prop").write_text("".join(f"{k}={v}\n" for k, v in self.props.items()))
            props = "/system/build.prop" if self.use_bwrap else str(self.root / "build.prop")
            self.add_tool(
                "getprop",
                "#!/bin/sh\n"
                f'if [ $# -eq 0 ]; then sed "s/^\\([^=]*\\)=\\(.*\\)$/[\\1]: [\\2]/" {props}; '
                f'else grep "^$1=" {props} | cut -d= -f2-; fi\n',
            )
        else:
            self.add_tool("python3", f'#!/bin/sh\nexec {self.python} "$@"\n')

    def _make_sys(self) -> None:
        """A /sys with one thermal zone and a CPU governor, as phones and boards expose them."""
        zone = self.root / "sys/class/thermal/thermal_zone0"
        zone.mkdir(parents=True, exist_ok=True)
        (zone / "type").write_text("cpu-0-0\n")
        (zone / "temp").write_text("41500\n")
        cpufreq = self.root / "sys/devices/system/cpu/cpu0/cpufreq"
        cpufreq.mkdir(parents=True, exist_ok=True)
        (cpufreq / "scaling_governor").write_text("schedutil\n")

    def to_host(self, device_path: str) -> Path:
        """Where a device path lives on the host (for sync: push/pull/stat/list)."""
        path = os.path.normpath("/" + device_path.lstrip("/"))
        if path == "/data" or path.startswith("/data/"):
            return self.root / path.lstrip("/")
        if path == self.tools_mount or path.startswith(self.tools_mount + "/"):
            return self.tools / path[len(self.tools_mount) :].lstrip("/")
        if path == "/proc/cpuinfo" and self.kind == "board":
            return self.root / "proc" / "cpuinfo"
        if path == "/system/build.prop" and self.kind == "phone":
            return self.root / "build.prop"
        return Path(path)

    def shell_argv(self, command: str) -> tuple[list[str], dict, str]:
        """argv, environment and working directory that run ``command`` as the device's shell would."""
        path = f"{self.tools_mount}" if self.kind == "phone" else f"{self.tools_mount}:/usr/bin:/bin"
        if not self.use_bwrap:
            path = f"{self.tools}" if self.kind == "phone" else f"{self.tools}:/usr/bin:/bin"
            command = command.replace("/data/", f"{self.root}/data/").replace("/sys/", f"{self.root}/sys/")
            if self.kind == "board":
                command = command.replace("/proc/cpuinfo", f"{self.root}/proc/cpuinfo")
            env = {
                "PATH": path,
                "HOME": str(self.root / "data/local/tmp"),
                "TMPDIR": str(self.root / "data/local/tmp"),
            }
            return ["/bin/sh", "-c", command], env, str(self.root)
        env = {"PATH": path, "HOME": "/data/local/tmp", "TMPDIR": "/data/local/tmp"}
        return [*self._bwrap_args(), "/bin/sh", "-c", command], env, "/"

    def _python_paths(self) -> list[str]:
        """Folders under /tmp that the device-side python3 needs (venv, base install, this repo)."""
        candidates = {
            sys.prefix,
            sys.base_prefix,
            sys.exec_prefix,
            str(Path(self.python).resolve().parents[1]),
        }
        candidates.add(str(Path(__file__).resolve().parents[2]))  # the repo: deploy/ for the runners
        found = []
        for path in sorted(candidates):
            if Path(path).exists() and (path == "/tmp" or path.startswith("/tmp/")):
                found.append(path)
        return found

    def _bwrap_args(self) -> list[str]:
        args = [shutil.which("bwrap") or "bwrap", "--die-with-parent", "--unshare-pid", "--tmpfs", "/"]
        for entry in sorted(Path("/").iterdir()):
            if entry.name in ("data", "system", "proc", "dev", "tmp", "sys"):
                continue
            if entry.is_symlink():
                args += ["--symlink", os.readlink(entry), str(entry)]
            elif entry.exists():
                args += ["--ro-bind", str(entry), str(entry)]
        args += [
            "--dev",
            "/dev",
            "--proc",
            "/proc",
            "--tmpfs",
            "/tmp",
            "--bind",
            str(self.root / "data"),
            "/data",
        ]
        # The device's python3 is this test run's interpreter: when it lives under /tmp (a clone in
        # /tmp, as CI may make), the private /tmp above would hide it, so bind it back read-only.
        for host_path in self._python_paths():
            args += ["--ro-bind", host_path, host_path]
        args += ["--ro-bind", str(self.root / "sys"), "/sys", "--ro-bind", str(self.tools), self.tools_mount]
        if self.kind == "phone":
            args += ["--ro-bind", str(self.root / "build.prop"), "/system/build.prop"]
        else:
            args += ["--ro-bind", str(self.root / "proc" / "cpuinfo"), "/proc/cpuinfo"]
        return args + ["--chdir", "/"]


_BWRAP_OK: bool | None = None


def bwrap_works() -> bool:
    """Whether bubblewrap is installed and allowed to build a sandbox here (user namespaces or root)."""
    global _BWRAP_OK
    if _BWRAP_OK is None:
        _BWRAP_OK = False
        if shutil.which("bwrap") and not os.environ.get("DEPLOY_TEST_NO_BWRAP"):
            probe = subprocess.run(
                ["bwrap", "--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "true"],
                capture_output=True,
                timeout=20,
            )
            _BWRAP_OK = probe.returncode == 0
    return _BWRAP_OK
