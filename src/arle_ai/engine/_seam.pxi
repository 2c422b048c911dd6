# The seam to the layers above: functions the core calls but never imports.
#
# Offers: install_text, install_position_checker (called once by arle_ai/__init__.py) and
# _installed(name) to the other sections.
# Uses: nothing.
# Invariants: the core imports nothing above it; an installed function is checked callable.
#
# Action text lives in arle_ai.text (printed names, the pending decision's question) and the
# checks of a position's Python objects in arle_ai.formats.position; both import the core, so
# the core cannot import them (imports only go down: docs/architecture.md). The public face
# hands their functions in when arle_ai is imported, which Python does before any module of
# the package, this one included. A call that needs one before then raises RuntimeError.

_INSTALLED = {}  # name -> the function a layer above installed


def _install(who, functions):
    for name, f in functions.items():
        if not callable(f):
            raise TypeError(f"{who}: {name} must be callable, not {f!r}")
    _INSTALLED.update(functions)


def install_text(action_to_string, parse_action, illegal_action):
    """Give the core its action text (arle_ai.text): ``action_to_string(state, a) -> str``
    and ``parse_action(state, text) -> int`` behind the GameState methods of those names,
    ``illegal_action(state, a) -> IllegalActionError`` for the error apply() raises."""
    _install("install_text", {"action_to_string": action_to_string,
                              "parse_action": parse_action, "illegal_action": illegal_action})


def install_position_checker(check_position):
    """Give the core ``check_position(d) -> CheckedPosition`` (arle_ai.formats.position), which
    GameState.from_dict (and so from_json and unpickling) runs before copying a position."""
    _install("install_position_checker", {"check_position": check_position})


def _installed(name):
    """The function installed as ``name``; RuntimeError naming the installer if none is."""
    try:
        return _INSTALLED[name]
    except KeyError:
        how = "install_position_checker" if name == "check_position" else "install_text"
        raise RuntimeError(f"arle_ai.engine._core: no {name} is installed (import arle_ai, "
                           f"whose __init__ calls _core.{how})") from None
