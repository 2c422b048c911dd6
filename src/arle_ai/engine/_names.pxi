# The Python names of the game's things, each tuple in the order of the C index it names.
#
# Offers: SPACE_KEYS, TOOL_KEYS, BUILDING_KEYS, VEHICLE_KEYS, DEST_KEYS, FLIP_NAMES, TILE_NAMES,
#   LOAD_ITEM_NAMES (rules.py keys by index); FRAME_KINDS (by K_*), SUB_FRAMES (by F_* -
#   F_PAY_BUILDING), VARIANTS (by VARIANT_*), PLAYER_COUNTS, POSITION_FORMAT, MAX_SEED; ACTION_LAYOUT,
#   NUM_ACTIONS_PY, HALF_END_PROGRAM; _frame_step_name.
# Uses: _tables (NSPACES, NUM_ACTIONS), _data (_rules, LOAD_NAMES), _frames (F_*), _engine
#   (HE_*, INV_DONE).
# Invariants: these strings are the position format's and the public API's names: renaming
#   one changes every file that holds it; the tuples follow the C enums' order.

MAX_SEED = 2 ** 63 - 1  # seeds are stored as int64 (setup.seed of the position format)

SPACE_KEYS = tuple(a.key for a in _rules.ACTION_SPACES)
TOOL_KEYS = tuple(t.key for t in _rules.TOOLS)
BUILDING_KEYS = tuple(b.key for b in _rules.BUILDINGS)
VEHICLE_KEYS = tuple(v.key for v in _rules.VEHICLES)
DEST_KEYS = tuple(d.key for d in _rules.DESTINATIONS)
FLIP_NAMES = _rules.FLIP_TARGETS
TILE_NAMES = _rules.HOME_TILES
LOAD_ITEM_NAMES = LOAD_NAMES + DEST_KEYS
FRAME_KINDS = ("none", "turn", "end_window", "unused", "feed", "breed", "discard", "final_window",
               "november", "action", "game_over", "advance", "half_end")
SUB_FRAMES = ("pay_building", "cut", "flip", "master", "field", "forest", "animals", "deliver",
              "smithy", "farmers_inn", "bakehouse", "give_animals", "give_clothing", "junk_dealer")
VARIANTS = ("standard", "first-game")  # by VARIANT_* value (_state.pxi)
PLAYER_COUNTS = tuple(_rules.PLAYER_COUNTS)  # solo (State.solo = 1) and two players
POSITION_FORMAT = "arle-position/1"

# The action-id layout is rules.ACTION_LAYOUT (the enums ACT_* are generated from it).
ACTION_LAYOUT = _rules.ACTION_LAYOUT
NUM_ACTIONS_PY = NUM_ACTIONS
# The end-of-half-year program counter (GameState.apply_traced reports it per step).
HALF_END_PROGRAM = {"inventory_start": HE_INVENTORY_START,
                    "inventory_other": HE_INVENTORY_OTHER, "inventory_steps": INV_DONE,
                    "prepare": HE_PREPARE}


def _frame_step_name(int a):
    if 0 <= a < NSPACES:
        return SPACE_KEYS[a]
    if F_PAY_BUILDING <= a < F_LAST:
        return SUB_FRAMES[a - F_PAY_BUILDING]
    return str(a)
