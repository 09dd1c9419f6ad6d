"""A throwaway one-node SLURM cluster for the tests: munged, slurmctld and slurmd in the foreground, without
job accounting, configured and logged under one folder, stopped (and checked stopped) by :meth:`Cluster.stop`."""

import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

PACKAGES = ["slurmctld", "slurmd", "slurm-client", "munge"]  # Debian's slurm-wlm without its plugin extras
PROGRAMS = ["munged", "slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "unshare"]
POLICY = Path("/usr/sbin/policy-rc.d")  # Debian's switch that keeps package scripts from starting services


def install() -> str | None:
    """Install the packages with apt where a program is missing; the reason they cannot be, or None."""
    if all(shutil.which(p) for p in PROGRAMS):
        return None
    if os.geteuid() != 0:
        return "installing SLURM needs root"
    if not shutil.which("apt-get"):
        return "installing SLURM needs apt-get"
    own_policy = not POLICY.exists()
    if own_policy:  # the packages would start their services with the system's configuration
        POLICY.write_text("#!/bin/sh\nexit 101\n")
        POLICY.chmod(0o755)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    apt = ["apt-get", "-o", "DPkg::Lock::Timeout=300", "-q"]
    try:
        proc = subprocess.run(
            [*apt, "install", "-y", "--no-install-recommends", *PACKAGES], capture_output=True, text=True, env=env
        )
        if proc.returncode != 0:  # stale package lists on a fresh machine
            subprocess.run([*apt, "update"], capture_output=True, env=env)
            proc = subprocess.run(
                [*apt, "install", "-y", "--no-install-recommends", *PACKAGES], capture_output=True, text=True, env=env
            )
    finally:
        if own_policy:
            POLICY.unlink()
    if proc.returncode != 0:
        return f"apt-get install {' '.join(PACKAGES)} failed: {(proc.stderr or proc.stdout).strip()[-300:]}"
    missing = [p for p in PROGRAMS if not shutil.which(p)]
    return f"installed SLURM lacks {', '.join(missing)}" if missing else None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster:
    """One node named after this host with ``cpus`` CPUs and most of its memory, one partition ``partition``."""

    partition = "dpb"

    def __init__(self, root: Path, cpus: int):
        self.root, self.cpus = Path(root), cpus
        self.conf = self.root / "slurm.conf"
        # what a client needs; the second variable marks every process of the cluster, jobs included
        self.client_env = {"SLURM_CONF": str(self.conf), "DPB_SLURM_TEST": str(self.root)}
        self.env = {**os.environ, **self.client_env}
        self.procs: dict[str, subprocess.Popen] = {}

    def _config(self) -> str:
        node = socket.gethostname().split(".")[0]
        mem_mb = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2**20 * 9 // 10
        r = self.root
        return f"""ClusterName=dpbtest
SlurmctldHost={node}(127.0.0.1)
SlurmctldPort={_free_port()}
SlurmdPort={_free_port()}
SlurmUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={r}/munge.socket
StateSaveLocation={r}/state
SlurmdSpoolDir={r}/spool
SlurmctldPidFile={r}/slurmctld.pid
SlurmdPidFile={r}/slurmd.pid
SlurmctldLogFile={r}/slurmctld.log
SlurmdLogFile={r}/slurmd.log
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
MpiDefault=none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MinJobAge=3600
NodeName={node} NodeAddr=127.0.0.1 CPUs={self.cpus} RealMemory={mem_mb} State=UNKNOWN
PartitionName={self.partition} Nodes=ALL Default=YES MaxTime=INFINITE State=UP
"""

    def _spawn(self, name: str, *args: str) -> None:
        with open(self.root / f"{name}.out", "wb") as log:  # the daemon keeps its own copy of the descriptor
            self.procs[name] = subprocess.Popen(args, stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=self.root)

    def _wait(self, what: str, ready, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not ready():
            dead = [n for n, p in self.procs.items() if p.poll() is not None]
            if dead or time.monotonic() > deadline:
                logs = "\n".join(f"--- {f.name}\n{f.read_text()[-1500:]}" for f in sorted(self.root.glob("*.out")))
                raise RuntimeError(f"SLURM test cluster: {what} not ready ({', '.join(dead) or 'timeout'}):\n{logs}")
            time.sleep(0.5)

    def start(self) -> None:
        self.root.chmod(0o755)  # munged wants its socket's folder open to every user
        for d in ("state", "spool"):
            (self.root / d).mkdir()
        key = self.root / "munge.key"
        key.touch(mode=0o600)
        key.write_bytes(os.urandom(1024))
        self.conf.write_text(self._config())
        r = self.root
        self._spawn(
            "munged",
            "munged",
            "--foreground",
            f"--key-file={key}",
            f"--socket={r}/munge.socket",
            f"--pid-file={r}/munged.pid",
            f"--log-file={r}/munged.log",
            f"--seed-file={r}/munged.seed",
        )
        self._wait("munged", lambda: (r / "munge.socket").exists())
        self._spawn("slurmctld", "slurmctld", "-D", "-f", str(self.conf))
        # srun inside a job reads /etc/slurm/slurm.conf (the job-step executor drops SLURM_CONF), so slurmd and
        # its jobs see this folder there, in a mount namespace of their own: the machine's /etc is untouched
        self._spawn(
            "slurmd",
            "unshare",
            "--mount",
            "--propagation",
            "private",
            "sh",
            "-c",
            'mount --bind "$0" /etc/slurm && exec slurmd -D -f "$0/slurm.conf"',
            str(self.root),
        )
        self._wait("node", lambda: self.run("sinfo", "-h", "-o", "%T", check=False).stdout.strip() == "idle")

    def run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        return subprocess.run(args, capture_output=True, text=True, env=self.env, check=check, timeout=60)

    def leftovers(self) -> list[str]:
        """Live processes (pid and command) whose environment marks them as this cluster's."""
        mark = f"DPB_SLURM_TEST={self.root}".encode()
        found = []
        for proc in Path("/proc").glob("[0-9]*"):
            try:
                if mark in (proc / "environ").read_bytes().split(b"\0") and proc.name != str(os.getpid()):
                    command = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                    found.append(f"{proc.name} {command}")
            except OSError:  # gone meanwhile, or not ours to read
                pass
        return found

    def stop(self) -> None:
        """Cancel every job, stop the daemons (slurmd, slurmctld, munged) and raise if any process is left."""
        if "slurmctld" in self.procs and self.procs["slurmctld"].poll() is None:
            self.run("scancel", "--full", "--user", "root", check=False)
            deadline = time.monotonic() + 30
            while self.run("squeue", "-h", "-t", "PD,R,CG", check=False).stdout.strip():
                if time.monotonic() > deadline:
                    break
                time.sleep(0.5)
        for name in ("slurmd", "slurmctld", "munged"):
            proc = self.procs.pop(name, None)
            if proc is None:
                continue
            proc.terminate()
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        left = self.leftovers()
        for line in left:  # descendants of the daemons above: jobs or job steps that outlived them
            try:
                os.kill(int(line.split()[0]), 9)
            except ProcessLookupError:
                pass
        if left:
            raise RuntimeError("SLURM test cluster left processes behind:\n" + "\n".join(left))
