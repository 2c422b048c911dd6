# The decision stack, and what each kind of frame holds.
#
# Offers:
#   the stack: top, push, pop; pushers that fill a frame by name: push_plain, push_program,
#     push_feed, push_space, push_sub, push_payment, push_required_cuts, push_delivery
#   the sub-decisions of action frames: F_PAY_BUILDING .. F_JUNK (F_LAST after them)
#   one named accessor per frame kind and field: program_step (K_HALF_END), feed_owed
#     (K_FEED), action_of (K_ACTION: the space or F_* sub-decision), exchanges_left (an
#     exchange space, the Baker), paying_for (F_PAY_BUILDING), cuts_left (F_CUT), ... below,
#     with the setters that move each one on (fed_animal, use_exchange, picked_kind, ...)
#   add: one more id on a decision's legal list
# Uses: _state (State, Frame, K_*, STACK, memset).
# Invariants:
#   - A frame's five fields (what, step, count, low, mask: the keys a, b, c, d, m of a position
#     file) mean different things for each kind; they are read and written here only. The
#     position format (_position.pxi) and the feature vector (_features.pxi) copy them raw, as
#     the format keys, and read nothing else raw.
#   - push() on a full stack pushes nothing (cannot happen in legal play; memory stays safe);
#     pop() zeroes the frame it removes, so that equal positions have equal bytes. A frame's
#     unused fields stay 0.
#   - Everything here is `cdef inline`: an accessor is the field read it names, at no cost.

# The sub-decisions of K_ACTION frames: action_of(f) >= F_PAY_BUILDING (below it: a space's own
# frame, action_of(f) = the space). The values are part of the position format (SUB_FRAMES in
# _api.pxi names them in this order).
cdef enum:
    F_PAY_BUILDING = 30     # the choices of a building's cost (_payment.pxi)
    F_CUT = 31              # cutting peat (_subdecisions.pxi)
    F_FLIP = 32             # one flip (Warden icon)
    F_MASTER = 33           # Master steps on the tool tracks
    F_FIELD = 34            # placing fields (Farmer, clock buildings)
    F_FOREST = 35           # placing a forest (Lutetsburg Castle, as the Forester without cost)
    F_ANIMALS = 36          # animals to take of any kind (Potter's Inn)
    F_DELIVER = 37          # a travel destination's deliveries (_vehicles.pxi)
    F_SMITHY = 38           # swap peat boats / handcarts / wagons for plows, STOP to end (_buildings.pxi)
    F_FARMERS_INN = 39      # fields to turn into forests
    F_BAKEHOUSE = 40        # the Bakehouse's exchanges
    F_GIVE_ANIMALS = 41     # animals to hand over of any kind (a delivery, _vehicles.pxi)
    F_GIVE_CLOTHING = 42    # one clothing tile of your choice to hand over (a delivery)
    F_JUNK = 43             # Junk Dealer's Inn: a peat boat or a handcart (_buildings.pxi)
    F_LAST = 44

# ---- the stack ----

cdef inline Frame* top(State* s) noexcept nogil:
    return &s.stack[s.sp - 1]

cdef inline void push(State* s, int kind, int player, int a, int b, int c, int d) noexcept nogil:
    """Push a frame with the raw fields a (what), b (step), c (count), d (low); mask 0. The
    pushers below name what a kind's fields hold; call those."""
    cdef Frame* f
    if s.sp >= STACK:
        return      # cannot happen in legal play; guarded so memory stays safe
    f = &s.stack[s.sp]
    f.kind = <int8_t>kind
    f.player = <int8_t>player
    f.what = <int8_t>a
    f.step = <int8_t>b
    f.count = <int8_t>c
    f.low = <int8_t>d
    f.mask = 0
    s.sp += 1

cdef inline void pop(State* s) noexcept nogil:
    if s.sp > 0:
        s.sp -= 1
        memset(&s.stack[s.sp], 0, sizeof(Frame))

cdef inline void push_plain(State* s, int kind, int player) noexcept nogil:
    """A frame whose fields are unused: K_TURN, K_END_WINDOW, K_DISCARD, K_BREED, K_NOVEMBER
    (the houses used are Player.november_used), K_FINAL_WINDOW, K_GAME_OVER."""
    push(s, kind, player, 0, 0, 0, 0)

# ---- K_HALF_END: the end-of-half-year program (HE_*, _engine.pxi) ----

cdef inline void push_program(State* s, int player, int pc) noexcept nogil:
    push(s, K_HALF_END, player, pc, 0, 0, 0)

cdef inline int program_step(Frame* f) noexcept nogil:
    """The program's next step (key a)."""
    return f.what

cdef inline void set_program_step(Frame* f, int pc) noexcept nogil:
    f.what = <int8_t>pc

# ---- K_FEED: animals given for missing food ----

cdef inline void push_feed(State* s, int player, int owed) noexcept nogil:
    push(s, K_FEED, player, owed, 0, 0, 0)

cdef inline int feed_owed(Frame* f) noexcept nogil:
    """Animals still owed (key a)."""
    return f.what

cdef inline int feed_lowest(Frame* f) noexcept nogil:
    """The lowest animal type still allowed (key b): animals are given in type order."""
    return f.step

cdef inline void fed_animal(Frame* f, int t) noexcept nogil:
    f.what -= 1
    f.step = <int8_t>t

# ---- K_ACTION: a step of an action space, or one of the sub-decisions F_* ----

cdef inline int action_of(Frame* f) noexcept nogil:
    """The space (< NSPACES) whose action this frame carries out, or its F_* sub-decision
    (key a; a position file names it as "step")."""
    return f.what

cdef inline void push_space(State* s, int player, int space, int repeats) noexcept nogil:
    """The space's own pending frame; `repeats`: the repetitions left where it has any (an
    exchange space, the Baker, the Butcher), else 0."""
    push(s, K_ACTION, player, space, 0, repeats, 0)

cdef inline void push_sub(State* s, int player, int what, int count) noexcept nogil:
    """Sub-decision `what` (F_*) with `count` things left (its accessors below say what it
    counts; 0 where it counts nothing)."""
    push(s, K_ACTION, player, what, 0, count, 0)

# a space's own frame (action_of(f) < NSPACES)

cdef inline int exchanges_left(Frame* f) noexcept nogil:
    """An "up to (tool) times" space (Wool Weaver, Tanner, Linen Weaver, Potter, Baker): the
    repetitions left (key c)."""
    return f.count

cdef inline void use_exchange(Frame* f) noexcept nogil:
    f.count -= 1

cdef inline int butcher_left(Frame* f) noexcept nogil:
    """The Butcher: animals that may still be slaughtered (key c)."""
    return f.count

cdef inline int butcher_lowest(Frame* f) noexcept nogil:
    """The Butcher: the lowest animal type still allowed (key d; taken in type order)."""
    return f.low

cdef inline void butchered(Frame* f, int t) noexcept nogil:
    f.count -= 1
    f.low = <int8_t>t

cdef inline int merchant_second_part(Frame* f) noexcept nogil:
    """The Builders' Merchant: 0 while wood or clay is chosen, 1 for timber or brick (key b)."""
    return f.step

cdef inline void merchant_to_second_part(Frame* f) noexcept nogil:
    f.step = 1

cdef inline int vehicle_decided(Frame* f) noexcept nogil:
    """The Wainwright: 1 once the vehicle is bought or declined (then only a peat boat; key b)."""
    return f.step

cdef inline void decide_vehicle(Frame* f) noexcept nogil:
    f.step = 1

# F_PAY_BUILDING: the cost's fixed part is paid; its choices are left

cdef inline void push_payment(State* s, int player, int b, int picks, int has_either) noexcept nogil:
    """Paying for building b: first its "either" part (if `has_either`), then `picks` kinds."""
    push(s, K_ACTION, player, F_PAY_BUILDING, 0, b, 0)
    top(s).mask = picks
    if not has_either:
        top(s).step = 1

cdef inline int paying_for(Frame* f) noexcept nogil:
    """The building being paid (key c)."""
    return f.count

cdef inline int either_paid(Frame* f) noexcept nogil:
    """0 while the cost's "either" part is still to choose, then 1 (key b)."""
    return f.step

cdef inline void set_either_paid(Frame* f) noexcept nogil:
    f.step = 1

cdef inline int kinds_to_pick(Frame* f) noexcept nogil:
    """Materials or clothing tiles still to pick (key m)."""
    return f.mask

cdef inline int lowest_kind(Frame* f) noexcept nogil:
    """The lowest good still allowed (key d): kinds are picked in increasing order."""
    return f.low

cdef inline void picked_kind(Frame* f, int next_lowest) noexcept nogil:
    f.mask -= 1
    f.low = <int8_t>next_lowest

# F_CUT

cdef inline void push_required_cuts(State* s, int player, int cuts) noexcept nogil:
    """Cutting `cuts` peat, STOP not offered (a position file may hold an optional cut: b 0)."""
    push(s, K_ACTION, player, F_CUT, 1, cuts, 0)

cdef inline int cuts_left(Frame* f) noexcept nogil:
    """Peat still to cut (key c)."""
    return f.count

cdef inline int cut_required(Frame* f) noexcept nogil:
    """1 when the cuts are not optional: no STOP (key b)."""
    return f.step

cdef inline void cut_one(Frame* f) noexcept nogil:
    f.count -= 1

# F_MASTER

cdef inline int moves_left(Frame* f) noexcept nogil:
    """Tool steps still allowed (key c)."""
    return f.count

cdef inline int lowest_track(Frame* f) noexcept nogil:
    """The lowest tool track still allowed (key d): tracks are taken in increasing order."""
    return f.low

cdef inline void moved_track(Frame* f, int t) noexcept nogil:
    f.count -= 1
    f.low = <int8_t>(t + 1)

# F_FIELD

cdef inline int fields_to_place(Frame* f) noexcept nogil:
    """Fields still allowed (key c)."""
    return f.count

cdef inline int lowest_side(Frame* f) noexcept nogil:
    """The lowest field side still allowed (key d): grain before flax."""
    return f.low

cdef inline void placed_side(Frame* f, int side) noexcept nogil:
    f.count -= 1
    f.low = <int8_t>side

# F_FOREST

cdef inline int forests_to_place(Frame* f) noexcept nogil:
    """Forests still allowed (key c)."""
    return f.count

cdef inline void placed_forest_tile(Frame* f) noexcept nogil:
    f.count -= 1

# F_ANIMALS

cdef inline int animals_to_take(Frame* f) noexcept nogil:
    """Animals of any kind still to take (key c)."""
    return f.count

cdef inline int lowest_to_take(Frame* f) noexcept nogil:
    """The lowest animal type still allowed (key d; taken in type order)."""
    return f.low

cdef inline void took_animal(Frame* f, int t) noexcept nogil:
    f.count -= 1
    f.low = <int8_t>t

# F_DELIVER

cdef inline void push_delivery(State* s, int player, int d) noexcept nogil:
    push(s, K_ACTION, player, F_DELIVER, 0, d, 0)

cdef inline int delivering_to(Frame* f) noexcept nogil:
    """The destination delivering (key c)."""
    return f.count

cdef inline int deliveries_made(Frame* f) noexcept nogil:
    """The printed deliveries made, one bit each (key m)."""
    return f.mask

cdef inline void mark_delivered(Frame* f, int slot) noexcept nogil:
    f.mask |= <int16_t>(1 << slot)

# F_FARMERS_INN

cdef inline int fields_to_turn(Frame* f) noexcept nogil:
    """Fields that may still become forests (key c)."""
    return f.count

cdef inline void turned_field(Frame* f) noexcept nogil:
    f.count -= 1

# F_BAKEHOUSE

cdef inline int bakes_left(Frame* f) noexcept nogil:
    """Bakehouse exchanges still allowed (key c)."""
    return f.count

cdef inline void baked(Frame* f) noexcept nogil:
    f.count -= 1

# F_GIVE_ANIMALS

cdef inline int animals_to_give(Frame* f) noexcept nogil:
    """Animals of any kind still to hand over (key c)."""
    return f.count

cdef inline int lowest_to_give(Frame* f) noexcept nogil:
    """The lowest animal type still allowed (key d; handed over in type order)."""
    return f.low

cdef inline void gave_animal(Frame* f, int t) noexcept nogil:
    f.count -= 1
    f.low = <int8_t>t

# F_FLIP, F_SMITHY, F_GIVE_CLOTHING, F_JUNK: no fields (push_sub with count 0)

# ---- the legal list of a decision ----

cdef inline int add(int* out, int n, int a) noexcept nogil:
    out[n] = a
    return n + 1
