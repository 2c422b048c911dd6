"""arle serve from the command line: it serves the app, and refuses bad addresses cleanly."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import urllib.request

import pytest
from click.testing import CliRunner

from arle_cli.main import cli
from arle_cli.serve_cmd import STOPPED

pytest.importorskip("uvicorn")


def test_serve_answers_and_stops_on_ctrl_c():
    proc = subprocess.Popen([sys.executable, "-m", "arle_cli.main", "serve", "--port", "0"],
                            stderr=subprocess.PIPE, text=True)
    try:
        line = proc.stderr.readline()
        assert line.startswith("arle serve: open http://127.0.0.1:"), line
        url = line.split()[3]
        with urllib.request.urlopen(url, timeout=10) as r:
            assert r.status == 200 and b"Fields of Arle" in r.read()
        with urllib.request.urlopen(url + "api/catalog", timeout=10) as r:
            assert r.status == 200
    finally:
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=20)
    # Ctrl-C ends serve as it ends every command: exit 130 and one line saying what was kept
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert err.strip().splitlines()[-1] == f"arle: interrupted: {STOPPED}", err


def test_serve_refuses_a_busy_port_and_bad_addresses():
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = CliRunner().invoke(cli, ["serve", "--port", str(port)])
        assert r.exit_code == 2
        assert f"arle: error: cannot listen on 127.0.0.1:{port}" in r.output
    r = CliRunner().invoke(cli, ["serve", "--port", "70000"])
    assert r.exit_code == 2 and "70000" in r.output
    r = CliRunner().invoke(cli, ["serve", "--host", "no.such.host.invalid"])
    assert r.exit_code == 2 and "cannot listen on no.such.host.invalid" in r.output
