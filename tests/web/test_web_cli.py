"""arle serve from the command line: it serves the app, and refuses bad addresses cleanly."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import urllib.request

from click.testing import CliRunner

from arle_cli.main import cli
from arle_cli.serve_cmd import STOPPED


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
        # a busy port says what to do: another --port
        assert (f"choose another port with --port {port + 1}, or --port 0 for any free one"
                in r.output), r.output
    r = CliRunner().invoke(cli, ["serve", "--port", "70000"])
    assert r.exit_code == 2 and "70000" in r.output
    r = CliRunner().invoke(cli, ["serve", "--host", "no.such.host.invalid"])
    assert r.exit_code == 2 and "cannot listen on no.such.host.invalid" in r.output


def test_the_browser_tests_fail_without_chromium_and_say_how_to_leave_them_out(tmp_path):
    """README's test command needs chromium: without it the browser tests fail, naming it and
    the way to run without them (they skipped in silence)."""
    import os
    import subprocess
    import sys
    from pathlib import Path

    e2e = Path(__file__).resolve().parent / "test_web_e2e.py"
    env = dict(os.environ, ARLE_CHROMIUM=str(tmp_path / "no-chromium"))
    first = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                            str(e2e), "-x"], capture_output=True, text=True, env=env,
                           cwd=tmp_path, timeout=300)
    assert first.returncode == 1, first.stdout[-2000:]
    assert "the browser tests need Debian's chromium" in first.stdout
    assert "python -m pytest -q -m 'not browser'" in first.stdout
    left_out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                               str(e2e), "-m", "not browser"], capture_output=True, text=True,
                              env=env, cwd=tmp_path, timeout=300)
    assert left_out.returncode == 5 and "deselected" in left_out.stdout, left_out.stdout[-2000:]
