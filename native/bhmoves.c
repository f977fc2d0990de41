/* battlehost's legal-move geometry in C: a measured prototype of the hottest path of a battlehost battle (issue 26).
 *
 * The same functions as src/kessen/rulesets/battlehost/referee/moves.py, on the same Python objects, giving the same
 * answers bit for bit:
 *   breach(mover, x1, y1, models, board, limit, engaged, charging)  ==  moves._breach(...)
 *   charge_point(mover, target, models, board, limit, engaged)       ==  moves.charge_point(..., limit=, engaged=)
 *   hypot(x, y)                                                      ==  math.hypot(x, y)
 * configure(Point, turns) first: the class a charge point is made as, and moves._CHARGE_TURNS.
 *
 * Every float operation is the one the Python source does, in its order (IEEE double, round to nearest, no
 * contraction into fused multiply-adds: built with -ffp-contract=off); Python's min/max keep the first of equals,
 * and so do the ternaries here. math.hypot is not libm's hypot: CPython computes it correctly rounded in all but
 * the rarest cases, and kn_hypot below does the same (x² + y² kept exactly as two doubles, one square root and a
 * Newton step); tests/native/test_native_moves.py checks it against math.hypot and every call of recorded battles.
 * A distance compared with a limit is read off its square where that settles it, as core.geometry.beyond does.
 *
 * The models are read once a call into a C array (their places, radii, sides and whether each has a control zone);
 * a full native core would keep them so and pay none of that (see benchmarks/README.md).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>

#define EPS 0.01            /* BH-GEO-3 */
#define CONTROL_ZONE 1.0    /* BH-GEO-4 */
#define ZONE_TOLERANCE 1e-9
#define PATH_ZONE_TOLERANCE 1e-6
#define AHEAD 1e-9          /* BH-GEO-7 condition 1 */
#define MAX_TURNS 32

static PyObject *point_class = NULL;
static double turns_c[MAX_TURNS], turns_s[MAX_TURNS];
static Py_ssize_t n_turns = 0;
static PyObject *s_x, *s_y, *s_r, *s_id, *s_side, *s_prone, *s_width, *s_height, *s_terrain, *s_x0, *s_y0, *s_x1,
    *s_y1, *s_good, *k_too_far, *k_blocked, *k_overlap, *k_no_contact, *k_zone, *k_ground;

/* --- math.hypot, correctly rounded as CPython's is ------------------------------------------------------------ */

static double kn_hypot(double x, double y)
{
    x = fabs(x);
    y = fabs(y);
    if (isinf(x) || isinf(y)) return INFINITY;
    if (isnan(x) || isnan(y)) return NAN;
    double big = x < y ? y : x, small = x < y ? x : y;
    if (big == 0.0 || small == 0.0) return big;
    int e;
    frexp(big, &e);
    if (e < -1000 || e > 1000) return hypot(x, y); /* far outside a table's inches: not reached by the referee */
    double scale = ldexp(1.0, -e);
    double a = big * scale, b = small * scale; /* exact: powers of two */
    double a2 = a * a, a2e = fma(a, a, -a2);
    double b2 = b * b, b2e = fma(b, b, -b2);
    double hi = a2 + b2, lo = (a2 - hi) + b2 + a2e + b2e; /* a2 >= b2: the two-sum's error is exact */
    double h = sqrt(hi + lo);
    double hh = h * h, hhe = fma(h, h, -hh);
    double rest = ((hi - hh) + lo) - hhe; /* (hi + lo) - h², near enough exactly */
    h += rest / (2.0 * h);
    return h / scale;
}

/* core.geometry.beyond: 1 when |(dx, dy)| is surely beyond limit, -1 surely short of it, 0 within a billionth */
static inline int beyond(double dx, double dy, double limit)
{
    double margin = fabs(limit) * 1e-9 + 1e-12;
    double d2 = dx * dx + dy * dy;
    double above = limit + margin;
    if (above > 0 && d2 > above * above) return 1;
    double below = limit - margin;
    if (below > 0 && d2 < below * below) return -1;
    return 0;
}

/* core.geometry.reaches: hypot(dx, dy) - r <= reach */
static inline int reaches(double dx, double dy, double r, double reach)
{
    int side = beyond(dx, dy, reach + r);
    if (side != 0) return side < 0;
    return kn_hypot(dx, dy) - r <= reach;
}

/* --- the measures of core/geometry.py, as written there ------------------------------------------------------- */

static inline double py_min(double a, double b) { return b < a ? b : a; }
static inline double py_max(double a, double b) { return b > a ? b : a; }

static void segment_offset(double ax, double ay, double bx, double by, double px, double py, double *ex, double *ey)
{
    double abx = bx - ax, aby = by - ay;
    double length2 = abx * abx + aby * aby;
    double t = length2 == 0 ? 0.0 : py_max(0.0, py_min(1.0, ((px - ax) * abx + (py - ay) * aby) / length2));
    *ex = ax + abx * t - px;
    *ey = ay + aby * t - py;
}

static double segment_distance(double ax, double ay, double bx, double by, double px, double py)
{
    double ex, ey;
    segment_offset(ax, ay, bx, by, px, py, &ex, &ey);
    return kn_hypot(ex, ey);
}

static inline double base_gap(double ax, double ay, double ar, double bx, double by, double br)
{
    return kn_hypot(ax - bx, ay - by) - ar - br;
}

typedef struct { double x0, y0, x1, y1; } Block;

static double rect_distance(const Block *k, double px, double py)
{
    double dx = py_max(py_max(k->x0 - px, 0.0), px - k->x1);
    double dy = py_max(py_max(k->y0 - py, 0.0), py - k->y1);
    return kn_hypot(dx, dy);
}

static int segment_enters_rect(double ax, double ay, double bx, double by, const Block *k)
{
    double t0 = 0.0, t1 = 1.0, dx = bx - ax, dy = by - ay;
    double ps[4] = {-dx, dx, -dy, dy}, qs[4] = {ax - k->x0, k->x1 - ax, ay - k->y0, k->y1 - ay};
    for (int i = 0; i < 4; i++) {
        double p = ps[i], q = qs[i];
        if (p == 0) {
            if (q < 0) return 0;
            continue;
        }
        double t = q / p;
        if (p < 0) t0 = py_max(t0, t);
        else t1 = py_min(t1, t);
        if (t0 > t1) return 0;
    }
    return 1;
}

static double segment_rect_distance(double ax, double ay, double bx, double by, const Block *k)
{
    if (segment_enters_rect(ax, ay, bx, by, k)) return 0.0;
    double ends = py_min(rect_distance(k, ax, ay), rect_distance(k, bx, by));
    double cx[4] = {k->x0, k->x1, k->x1, k->x0}, cy[4] = {k->y0, k->y0, k->y1, k->y1};
    double corners = segment_distance(ax, ay, bx, by, cx[0], cy[0]);
    for (int i = 1; i < 4; i++) corners = py_min(corners, segment_distance(ax, ay, bx, by, cx[i], cy[i]));
    return py_min(ends, corners);
}

/* --- the table read off the Python objects ---------------------------------------------------------------------- */

typedef struct {
    PyObject *model; /* borrowed: the models tuple holds it through the call */
    PyObject *id;    /* borrowed from the model */
    Py_hash_t hash;  /* the id's: ids are told apart by it before their text is compared */
    double x, y, r;
    int good, zone; /* zone: has a control zone (neither prone nor engaged, BH-GEO-4) */
} Piece;

typedef struct {
    double width, height;
    Py_ssize_t n_blocks;
    Block *blocks;
} Ground;

static int read_double(PyObject *o, PyObject *name, double *out)
{
    PyObject *v = PyObject_GetAttr(o, name);
    if (v == NULL) return -1;
    *out = PyFloat_AsDouble(v);
    Py_DECREF(v);
    return (*out == -1.0 && PyErr_Occurred()) ? -1 : 0;
}

static int read_piece(PyObject *m, PyObject *engaged, Piece *p)
{
    p->model = m;
    if (read_double(m, s_x, &p->x) || read_double(m, s_y, &p->y) || read_double(m, s_r, &p->r)) return -1;
    PyObject *id = PyObject_GetAttr(m, s_id);
    if (id == NULL) return -1;
    p->id = id;
    p->hash = PyObject_Hash(id);
    Py_DECREF(id); /* the model keeps it */
    if (p->hash == -1) return -1;
    PyObject *side = PyObject_GetAttr(m, s_side);
    if (side == NULL) return -1;
    p->good = PyUnicode_Compare(side, s_good) == 0;
    Py_DECREF(side);
    p->zone = 0;
    if (engaged != NULL) {
        PyObject *prone = PyObject_GetAttr(m, s_prone);
        if (prone == NULL) return -1;
        int is_prone = PyObject_IsTrue(prone);
        Py_DECREF(prone);
        int in = PySet_Contains(engaged, id);
        if (is_prone < 0 || in < 0) return -1;
        p->zone = !is_prone && !in;
    }
    return 0;
}

static Piece *read_pieces(PyObject *models, PyObject *engaged, Py_ssize_t *n)
{
    if (!PyTuple_Check(models)) {
        PyErr_SetString(PyExc_TypeError, "models must be a tuple of models");
        return NULL;
    }
    *n = PyTuple_GET_SIZE(models);
    Piece *pieces = PyMem_Malloc(sizeof(Piece) * (*n > 0 ? *n : 1));
    if (pieces == NULL) return (Piece *)PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < *n; i++) {
        if (read_piece(PyTuple_GET_ITEM(models, i), engaged, &pieces[i])) {
            PyMem_Free(pieces);
            return NULL;
        }
    }
    return pieces;
}

static int read_ground(PyObject *board, Ground *g)
{
    g->blocks = NULL;
    g->n_blocks = 0;
    if (read_double(board, s_width, &g->width) || read_double(board, s_height, &g->height)) return -1;
    PyObject *terrain = PyObject_GetAttr(board, s_terrain);
    if (terrain == NULL) return -1;
    PyObject *seq = PySequence_Fast(terrain, "terrain must be a sequence");
    Py_DECREF(terrain);
    if (seq == NULL) return -1;
    g->n_blocks = PySequence_Fast_GET_SIZE(seq);
    g->blocks = PyMem_Malloc(sizeof(Block) * (g->n_blocks > 0 ? g->n_blocks : 1));
    if (g->blocks == NULL) {
        Py_DECREF(seq);
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < g->n_blocks; i++) {
        PyObject *k = PySequence_Fast_GET_ITEM(seq, i);
        Block *b = &g->blocks[i];
        if (read_double(k, s_x0, &b->x0) || read_double(k, s_y0, &b->y0) || read_double(k, s_x1, &b->x1) ||
            read_double(k, s_y1, &b->y1)) {
            Py_DECREF(seq);
            PyMem_Free(g->blocks);
            return -1;
        }
    }
    Py_DECREF(seq);
    return 0;
}

/* An id (borrowed) with its hash; NULL for none (no model charged). */
typedef struct { PyObject *id; Py_hash_t hash; } Id;

static inline int same_id(const Piece *p, Id other)
{
    return p->id == other.id || (other.id != NULL && p->hash == other.hash && PyUnicode_Compare(p->id, other.id) == 0);
}

static inline Id id_of(const Piece *p) { return (Id){p->id, p->hash}; }

/* --- the legal-move test (BH-MOVE-2..5, BH-GEO-5, BH-GEO-7) ----------------------------------------------------- */

/* battlefield.ground_blocks_at */
static int ground_blocks_at(double r, double x0, double y0, double x1, double y1, const Ground *g)
{
    double tol = 1e-9;
    if (!(r - tol <= x1 && x1 <= g->width - r + tol && r - tol <= y1 && y1 <= g->height - r + tol)) return 1;
    if (g->n_blocks == 0) return 0;
    double margin = r + EPS + 1e-6;
    double x_min = py_min(x0, x1) - margin, x_max = py_max(x0, x1) + margin;
    double y_min = py_min(y0, y1) - margin, y_max = py_max(y0, y1) + margin;
    for (Py_ssize_t i = 0; i < g->n_blocks; i++) {
        const Block *k = &g->blocks[i];
        if (k->x0 > x_max || k->x1 < x_min || k->y0 > y_max || k->y1 < y_min) continue;
        double along = segment_rect_distance(x0, y0, x1, y1, k);
        if (along <= r + EPS && along < rect_distance(k, x0, y0)) return 1;
    }
    return 0;
}

/* battlefield.first_blocker: the place of the first blocking model, or -1 */
static Py_ssize_t first_blocker(const Piece *mover, double x1, double y1, const Piece *ps, Py_ssize_t n, Id ignore)
{
    double x0 = mover->x, y0 = mover->y, dx = x1 - x0, dy = y1 - y0;
    double length = kn_hypot(dx, dy);
    if (length == 0) return -1;
    double ux = dx / length, uy = dy / length, rm = mover->r;
    for (Py_ssize_t i = 0; i < n; i++) {
        const Piece *x = &ps[i];
        if (same_id(x, id_of(mover)) || (ignore.id != NULL && same_id(x, ignore))) continue;
        double t = (x->x - x0) * ux + (x->y - y0) * uy;
        if (t <= AHEAD) continue;
        double tc = py_min(t, length);
        if (reaches(x0 + ux * tc - x->x, y0 + uy * tc - x->y, 0.0, rm + x->r + EPS)) return i;
    }
    return -1;
}

/* moves._zone_breach: the place of the first enemy whose zone the move breaks into, or -1 */
static Py_ssize_t zone_breach(const Piece *mover, double x1, double y1, const Piece *ps, Py_ssize_t n, Id charging)
{
    double x0 = mover->x, y0 = mover->y;
    double len = kn_hypot(x1 - x0, y1 - y0);
    if (len == 0) return -1;
    double dx = (x1 - x0) / len, dy = (y1 - y0) / len;
    for (Py_ssize_t i = 0; i < n; i++) {
        const Piece *x = &ps[i];
        if (x->good == mover->good || (charging.id != NULL && same_id(x, charging)) || !x->zone) continue;
        int start = beyond(x0 - x->x, y0 - x->y, CONTROL_ZONE - ZONE_TOLERANCE + mover->r + x->r);
        if (start > 0 || (start == 0 && !(base_gap(x0, y0, mover->r, x->x, x->y, x->r) < CONTROL_ZONE - ZONE_TOLERANCE))) {
            double ex, ey;
            segment_offset(x0, y0, x1, y1, x->x, x->y, &ex, &ey);
            int way = beyond(ex, ey, CONTROL_ZONE - PATH_ZONE_TOLERANCE + mover->r + x->r);
            if (way < 0 || (way == 0 && kn_hypot(ex, ey) - mover->r - x->r < CONTROL_ZONE - PATH_ZONE_TOLERANCE)) return i;
        } else if ((x0 - x->x) * dx + (y0 - x->y) * dy < -1e-9) {
            return i;
        }
    }
    return -1;
}

enum { OK = 0, TOO_FAR, BLOCKED, OVERLAP, NO_CONTACT, ZONE, GROUND, FAILED };

/* moves._breach: the kind of breach, and the place of the model it names in *who* (-1 for none) */
static int breach_of(const Piece *mover, double x1, double y1, const Piece *ps, Py_ssize_t n, const Ground *g,
                     double limit, Id charging, Py_ssize_t *who)
{
    double x0 = mover->x, y0 = mover->y;
    *who = -1;
    if (kn_hypot(x1 - x0, y1 - y0) > limit + 1e-9) return TOO_FAR;
    *who = first_blocker(mover, x1, y1, ps, n, charging);
    if (*who >= 0) return BLOCKED;
    if (charging.id != NULL) {
        Py_ssize_t t = 0;
        while (t < n && !same_id(&ps[t], charging)) t++;
        if (t == n) {
            PyErr_SetString(PyExc_RuntimeError, "the charged model is not among the models"); /* Python: StopIteration */
            return FAILED;
        }
        *who = t;
        if (segment_distance(x0, y0, x1, y1, ps[t].x, ps[t].y) - mover->r - ps[t].r < -EPS) return OVERLAP;
        int side = beyond(x1 - ps[t].x, y1 - ps[t].y, EPS + mover->r + ps[t].r); /* core.geometry.bases_touch */
        if (side > 0 || (side == 0 && !(base_gap(x1, y1, mover->r, ps[t].x, ps[t].y, ps[t].r) <= EPS))) return NO_CONTACT;
        *who = -1;
    }
    *who = zone_breach(mover, x1, y1, ps, n, charging);
    if (*who >= 0) return ZONE;
    return ground_blocks_at(mover->r, x0, y0, x1, y1, g) ? GROUND : OK;
}

static PyObject *breach_result(int kind, Py_ssize_t who, const Piece *ps)
{
    PyObject *name;
    switch (kind) {
    case OK: Py_RETURN_NONE;
    case TOO_FAR: name = k_too_far; break;
    case BLOCKED: name = k_blocked; break;
    case OVERLAP: name = k_overlap; break;
    case NO_CONTACT: name = k_no_contact; break;
    case ZONE: name = k_zone; break;
    case GROUND: name = k_ground; break;
    default: return NULL;
    }
    return PyTuple_Pack(2, name, who >= 0 ? ps[who].model : Py_None);
}

static PyObject *py_breach(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "breach(mover, x1, y1, models, board, limit, engaged, charging)");
        return NULL;
    }
    double x1 = PyFloat_AsDouble(args[1]), y1 = PyFloat_AsDouble(args[2]), limit = PyFloat_AsDouble(args[5]);
    if (PyErr_Occurred()) return NULL;
    Id charging = {NULL, 0};
    if (args[7] != Py_None && (charging.hash = PyObject_Hash(charging.id = args[7])) == -1) return NULL;
    Piece mover;
    if (read_piece(args[0], NULL, &mover)) return NULL;
    Py_ssize_t n;
    Piece *ps = read_pieces(args[3], args[6], &n);
    if (ps == NULL) return NULL;
    Ground g;
    if (read_ground(args[4], &g)) {
        PyMem_Free(ps);
        return NULL;
    }
    Py_ssize_t who;
    int kind = breach_of(&mover, x1, y1, ps, n, &g, limit, charging, &who);
    PyObject *out = breach_result(kind, who, ps);
    PyMem_Free(g.blocks);
    PyMem_Free(ps);
    return out;
}

/* One call's inputs read off the Python objects: what a native core would hold already. */
typedef struct {
    int charge;          /* charge_point, else breach */
    Piece mover, target; /* target: charge_point only */
    Piece *ps;
    Py_ssize_t n;
    Ground g;
    double x1, y1, limit;
    Id charging;        /* breach: the charged model's id, or none */
    PyObject *keep;     /* the arguments, holding every object the pieces borrow */
} Call;

static void call_free(Call *c)
{
    PyMem_Free(c->ps);
    PyMem_Free(c->g.blocks);
    Py_XDECREF(c->keep);
}

/* charge_point's reading: the mover, the target, the models, the board, the limit and the engaged ids */
static int read_charge(PyObject *const *args, Call *c)
{
    c->charge = 1;
    c->ps = NULL;
    c->g.blocks = NULL;
    c->keep = NULL;
    c->charging = (Id){NULL, 0};
    c->limit = PyFloat_AsDouble(args[4]);
    if (PyErr_Occurred()) return -1;
    if (read_piece(args[0], NULL, &c->mover) || read_piece(args[1], NULL, &c->target)) return -1;
    c->ps = read_pieces(args[2], args[5], &c->n);
    if (c->ps == NULL) return -1;
    if (read_ground(args[3], &c->g)) {
        PyMem_Free(c->ps);
        c->ps = NULL;
        return -1;
    }
    return 0;
}

/* moves.charge_point (BH-MOVE-5), with moves._along and moves.near_terrain, on what read_charge read; the pieces
 * and blocks are narrowed in place (a copy when *scratch* is given, so that the call can be answered again) */
static PyObject *charge_kernel(Call *c, Piece *scratch, Block *blocks)
{
    Piece mover = c->mover, target = c->target;
    double limit = c->limit, tx = target.x, ty = target.y;
    if (kn_hypot(tx - mover.x, ty - mover.y) - target.r - mover.r > limit + 1e-9) Py_RETURN_NONE;
    double n = kn_hypot(mover.x - tx, mover.y - ty);
    double ux = (mover.x - tx) / n, uy = (mover.y - ty) / n;
    double ring = target.r + mover.r;
    /* _along: the target and the models within reach of the line from the mover to it */
    Piece *local = scratch != NULL ? scratch : c->ps;
    double reach = ring + mover.r + CONTROL_ZONE + EPS + 1e-6;
    double ax = mover.x, ay = mover.y, dx = tx - mover.x, dy = ty - mover.y;
    double length2 = dx * dx + dy * dy;
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < c->n; i++) {
        const Piece *x = &c->ps[i];
        double t = length2 == 0 ? 0.0 : py_max(0.0, py_min(1.0, ((x->x - ax) * dx + (x->y - ay) * dy) / length2));
        if (same_id(x, id_of(&target)) || reaches(ax + t * dx - x->x, ay + t * dy - x->y, x->r, reach)) local[count++] = *x;
    }
    /* near_terrain: the blocks within reach of the box around mover–target */
    Ground g = c->g;
    g.blocks = blocks != NULL ? blocks : c->g.blocks;
    double near = ring + mover.r + EPS + 1e-6;
    double bx0 = py_min(mover.x, tx) - near, bx1 = py_max(mover.x, tx) + near;
    double by0 = py_min(mover.y, ty) - near, by1 = py_max(mover.y, ty) + near;
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < c->g.n_blocks; i++) {
        const Block *k = &c->g.blocks[i];
        if (!(k->x0 > bx1 || k->x1 < bx0 || k->y0 > by1 || k->y1 < by0)) g.blocks[kept++] = *k;
    }
    g.n_blocks = kept;
    for (Py_ssize_t i = 0; i < n_turns; i++) {
        double cs = turns_c[i], sn = turns_s[i];
        double x = tx + (ux * cs - uy * sn) * ring, y = ty + (ux * sn + uy * cs) * ring;
        Py_ssize_t who;
        int kind = breach_of(&mover, x, y, local, count, &g, limit, id_of(&target), &who);
        if (kind == FAILED) return NULL;
        if (kind == OK) return PyObject_CallFunction(point_class, "dd", x, y);
    }
    Py_RETURN_NONE;
}

static PyObject *py_charge_point(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6) {
        PyErr_SetString(PyExc_TypeError, "charge_point(mover, target, models, board, limit, engaged)");
        return NULL;
    }
    if (point_class == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "configure(Point, turns) first");
        return NULL;
    }
    Call c;
    if (read_charge(args, &c)) return NULL;
    PyObject *out = charge_kernel(&c, NULL, NULL);
    call_free(&c);
    return out;
}

/* --- the kernels alone: a call read once (read_call), answered as often as asked (answer) ------------------------ */

static void call_capsule_free(PyObject *capsule)
{
    Call *c = PyCapsule_GetPointer(capsule, "bhmoves.call");
    if (c != NULL) {
        call_free(c);
        PyMem_Free(c);
    }
}

static PyObject *py_read_call(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 6 && nargs != 8) {
        PyErr_SetString(PyExc_TypeError, "read_call(*charge_point's 6 arguments) or read_call(*breach's 8)");
        return NULL;
    }
    Call *c = PyMem_Malloc(sizeof(Call));
    if (c == NULL) return PyErr_NoMemory();
    int failed;
    if (nargs == 6) {
        failed = read_charge(args, c);
    } else {
        c->charge = 0;
        c->ps = NULL;
        c->g.blocks = NULL;
        c->x1 = PyFloat_AsDouble(args[1]);
        c->y1 = PyFloat_AsDouble(args[2]);
        c->limit = PyFloat_AsDouble(args[5]);
        c->charging = (Id){args[7] == Py_None ? NULL : args[7], 0};
        failed = PyErr_Occurred() != NULL || (c->charging.id != NULL && (c->charging.hash = PyObject_Hash(args[7])) == -1)
                 || read_piece(args[0], NULL, &c->mover);
        if (!failed) failed = (c->ps = read_pieces(args[3], args[6], &c->n)) == NULL;
        if (!failed) failed = read_ground(args[4], &c->g);
    }
    if (failed) {
        PyMem_Free(c->ps);
        PyMem_Free(c);
        return NULL;
    }
    c->keep = PyTuple_New(nargs);
    for (Py_ssize_t i = 0; c->keep != NULL && i < nargs; i++) PyTuple_SET_ITEM(c->keep, i, Py_NewRef(args[i]));
    PyObject *capsule = c->keep == NULL ? NULL : PyCapsule_New(c, "bhmoves.call", call_capsule_free);
    if (capsule == NULL) {
        call_free(c);
        PyMem_Free(c);
    }
    return capsule;
}

static PyObject *py_answer(PyObject *self, PyObject *capsule)
{
    Call *c = PyCapsule_GetPointer(capsule, "bhmoves.call");
    if (c == NULL) return NULL;
    if (!c->charge) {
        Py_ssize_t who;
        int kind = breach_of(&c->mover, c->x1, c->y1, c->ps, c->n, &c->g, c->limit, c->charging, &who);
        return breach_result(kind, who, c->ps);
    }
    Piece local[64];
    Block blocks[64];
    if (c->n > 64 || c->g.n_blocks > 64) {
        PyErr_SetString(PyExc_ValueError, "answer: at most 64 models and 64 blocks");
        return NULL;
    }
    return charge_kernel(c, local, blocks);
}

static PyObject *py_hypot(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "hypot(x, y)");
        return NULL;
    }
    double x = PyFloat_AsDouble(args[0]), y = PyFloat_AsDouble(args[1]);
    if (PyErr_Occurred()) return NULL;
    return PyFloat_FromDouble(kn_hypot(x, y));
}

static PyObject *py_configure(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "configure(Point, turns)");
        return NULL;
    }
    PyObject *seq = PySequence_Fast(args[1], "turns must be a sequence of (cos, sin)");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > MAX_TURNS) {
        Py_DECREF(seq);
        PyErr_SetString(PyExc_ValueError, "too many turns");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        double c, s;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(seq, i), "dd", &c, &s)) {
            Py_DECREF(seq);
            return NULL;
        }
        turns_c[i] = c;
        turns_s[i] = s;
    }
    Py_DECREF(seq);
    n_turns = n;
    Py_XSETREF(point_class, Py_NewRef(args[0]));
    Py_RETURN_NONE;
}

static PyMethodDef methods[] = {
    {"breach", (PyCFunction)(void (*)(void))py_breach, METH_FASTCALL, "moves._breach in C"},
    {"charge_point", (PyCFunction)(void (*)(void))py_charge_point, METH_FASTCALL, "moves.charge_point in C"},
    {"read_call", (PyCFunction)(void (*)(void))py_read_call, METH_FASTCALL, "one call's inputs read for answer"},
    {"answer", py_answer, METH_O, "the answer to a call read by read_call: the kernel alone"},
    {"hypot", (PyCFunction)(void (*)(void))py_hypot, METH_FASTCALL, "math.hypot for two floats, in C"},
    {"configure", (PyCFunction)(void (*)(void))py_configure, METH_FASTCALL, "configure(Point, turns)"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_bhmoves", "battlehost's legal-move geometry in C", -1, methods};

PyMODINIT_FUNC PyInit__bhmoves(void)
{
    struct { PyObject **at; const char *text; } names[] = {
        {&s_x, "x"}, {&s_y, "y"}, {&s_r, "r"}, {&s_id, "id"}, {&s_side, "side"}, {&s_prone, "prone"},
        {&s_width, "width"}, {&s_height, "height"}, {&s_terrain, "terrain"}, {&s_x0, "x0"}, {&s_y0, "y0"},
        {&s_x1, "x1"}, {&s_y1, "y1"}, {&s_good, "good"}, {&k_too_far, "too far"}, {&k_blocked, "blocked"},
        {&k_overlap, "overlap"}, {&k_no_contact, "no contact"}, {&k_zone, "control zone"}, {&k_ground, "ground"},
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        *names[i].at = PyUnicode_InternFromString(names[i].text);
        if (*names[i].at == NULL) return NULL;
    }
    return PyModule_Create(&module);
}
