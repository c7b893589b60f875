// kcd._native: compiled kernels of the Python rules machine (interpreter/core/native.py wraps them).
//
// Each kernel is an exact port of a pure function of the Python machine, which stays the reference
// (tests/test_native_kernels.py compares them on random boards, tests/test_native_lockstep.py whole games).
// Content stays data: the kernels receive the island's hexes and the counting weights from Python and name no
// card, leader, nest or Season card. They read the Hex and Kiwi slots in place (no copy of the island into
// another structure: a state's hexes change between calls, and a copy would cost what it saves).
#include <pybind11/pybind11.h>
#include <structmember.h>

#include <cstdint>
#include <utility>
#include <vector>

namespace py = pybind11;

namespace {

[[noreturn]] void raise_python() { throw py::error_already_set(); }

[[noreturn]] void raise_type(const char* what) {
    PyErr_SetString(PyExc_TypeError, what);
    throw py::error_already_set();
}

// The island's value classes (kcd.core.state Hex and Kiwi: slotted, immutable) and where their slots lie, bound
// once by `bind_types`: the kernels read a slot at its offset (a borrowed reference the Hex or Kiwi keeps alive),
// after checking the object is exactly of that class, and refuse anything else with a TypeError.
PyTypeObject* hex_type = nullptr;
PyTypeObject* kiwi_type = nullptr;
Py_ssize_t off_id = -1, off_kiwi = -1, off_nest = -1, off_terrain = -1, off_domain = -1, off_flock = -1, off_size = -1;

Py_ssize_t slot_offset(PyObject* cls, const char* name) {
    PyObject* d = PyObject_GetAttrString(cls, name);
    if (d == nullptr) raise_python();
    bool member = Py_TYPE(d) == &PyMemberDescr_Type;
    Py_ssize_t off = member ? reinterpret_cast<PyMemberDescrObject*>(d)->d_member->offset : -1;
    int kind = member ? reinterpret_cast<PyMemberDescrObject*>(d)->d_member->type : -1;
    Py_DECREF(d);
    if (!member || kind != T_OBJECT_EX) raise_type("bind_types needs classes whose fields are __slots__");
    return off;
}

void bind_types(py::type hex, py::type kiwi) {
    off_id = slot_offset(hex.ptr(), "id");
    off_kiwi = slot_offset(hex.ptr(), "kiwi");
    off_nest = slot_offset(hex.ptr(), "nest");
    off_terrain = slot_offset(hex.ptr(), "terrain");
    off_domain = slot_offset(hex.ptr(), "domain");
    off_flock = slot_offset(kiwi.ptr(), "flock");
    off_size = slot_offset(kiwi.ptr(), "size");
    Py_INCREF(hex.ptr());
    Py_INCREF(kiwi.ptr());
    hex_type = reinterpret_cast<PyTypeObject*>(hex.ptr());
    kiwi_type = reinterpret_cast<PyTypeObject*>(kiwi.ptr());
}

inline PyObject* slot(PyObject* obj, Py_ssize_t off) {
    PyObject* v = *reinterpret_cast<PyObject**>(reinterpret_cast<char*>(obj) + off);
    if (v == nullptr) raise_type("a Hex or Kiwi with an unset field");
    return v;
}

// A Python int as a 64-bit count (OverflowError beyond it: the checker bounds every count far below).
long long as_count(PyObject* v) {
    if (!PyLong_Check(v)) raise_type("a count must be an int");
    long long out = PyLong_AsLongLong(v);
    if (out == -1 && PyErr_Occurred()) raise_python();
    return out;
}

// Each flock's count in one hex, in the order the Python dict gets its keys (borrowed flock references that
// stay alive while the hex and `here` do). Flocks are str, compared by identity first, then by value.
struct Counts {
    static constexpr int inline_size = 8;
    std::pair<PyObject*, long long> fixed[inline_size];
    std::vector<std::pair<PyObject*, long long>> more;
    int n = 0;

    std::pair<PyObject*, long long>& at(int i) { return i < inline_size ? fixed[i] : more[i - inline_size]; }
    const std::pair<PyObject*, long long>& at(int i) const {
        return i < inline_size ? fixed[i] : more[i - inline_size];
    }

    void add(PyObject* flock, long long c) {
        if (!PyUnicode_CheckExact(flock)) raise_type("a flock id must be a str");
        for (int i = 0; i < n; ++i) {
            if (at(i).first == flock) { at(i).second += c; return; }
        }
        for (int i = 0; i < n; ++i) {
            int eq = PyUnicode_Compare(at(i).first, flock);
            if (eq == -1 && PyErr_Occurred()) raise_python();
            if (eq == 0) { at(i).second += c; return; }
        }
        if (n < inline_size) fixed[n] = {flock, c}; else more.emplace_back(flock, c);
        ++n;
    }

    // dominance.leader_of: the single highest count's flock, or nullptr on a tie or when none is above zero
    PyObject* leader() const {
        PyObject* best = nullptr;
        long long best_n = 0;
        bool tied = false;
        for (int i = 0; i < n; ++i) {
            const auto& item = at(i);
            if (item.second > best_n) {
                best = item.first; best_n = item.second; tied = false;
            } else if (item.second == best_n && item.second > 0) {
                tied = true;
            }
        }
        return (tied || best_n <= 0) ? nullptr : best;
    }
};

// dominance._counts: Kiwi (by size or one each) in stack order, then the Leaders `here` (a list or None), then
// the Nest's value when `nest_values` is a dict (None: Nests do not count).
void count_hex(PyObject* hex, PyObject* here, bool by_size, long long leader, PyObject* nest_values, Counts& out) {
    if (hex_type == nullptr) raise_type("kcd._native.bind_types was not called");
    if (Py_TYPE(hex) != hex_type) raise_type("the island's hexes must be kcd.core.state.Hex values");
    PyObject* stack = slot(hex, off_kiwi);
    if (!PyTuple_CheckExact(stack)) raise_type("a Hex's kiwi must be a tuple");
    Py_ssize_t n = PyTuple_GET_SIZE(stack);
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* k = PyTuple_GET_ITEM(stack, i);
        if (Py_TYPE(k) != kiwi_type) raise_type("a Hex's stacks must be kcd.core.state.Kiwi values");
        out.add(slot(k, off_flock), by_size ? as_count(slot(k, off_size)) : 1);
    }
    if (here != nullptr && here != Py_None) {
        if (!PyList_CheckExact(here)) raise_type("the Leaders of a hex must be a list");
        Py_ssize_t m = PyList_GET_SIZE(here);
        for (Py_ssize_t i = 0; i < m; ++i) out.add(PyList_GET_ITEM(here, i), leader);
    }
    if (nest_values != nullptr && nest_values != Py_None) {
        PyObject* nest = slot(hex, off_nest);
        if (nest != Py_None) {
            if (!PyTuple_CheckExact(nest) || PyTuple_GET_SIZE(nest) != 2) {
                PyErr_SetString(PyExc_ValueError, "a Hex's nest must be a (flock, nest id) pair");
                raise_python();
            }
            if (!PyDict_Check(nest_values)) raise_type("nest values must be a dict");
            PyObject* value = PyDict_GetItemWithError(nest_values, PyTuple_GET_ITEM(nest, 1));   // borrowed
            if (value == nullptr && PyErr_Occurred()) raise_python();
            long long v = value == nullptr ? 0 : as_count(value);
            if (v) out.add(PyTuple_GET_ITEM(nest, 0), v);
        }
    }
}

PyObject* or_none(PyObject* flock) {
    PyObject* r = flock != nullptr ? flock : Py_None;
    Py_INCREF(r);
    return r;
}

// dominance.dominant_all without flock-power weights: {hex id: dominant flock or None} in the hexes' order;
// `leaders` maps a hex id to the flocks whose Leader stands there, in seat order.
py::object dominant_all(py::dict hexes, py::dict leaders, bool by_size, long long leader, py::object nest_values) {
    PyObject* out = PyDict_New();
    if (out == nullptr) raise_python();
    py::object result = py::reinterpret_steal<py::object>(out);
    PyObject* nests = nest_values.ptr();
    bool any_leader = PyDict_GET_SIZE(leaders.ptr()) > 0;
    PyObject* key;
    PyObject* hex;
    Py_ssize_t pos = 0;
    while (PyDict_Next(hexes.ptr(), &pos, &key, &hex)) {
        PyObject* here = nullptr;
        if (any_leader) {
            here = PyDict_GetItemWithError(leaders.ptr(), key);   // borrowed
            if (here == nullptr && PyErr_Occurred()) raise_python();
        }
        Counts counts;
        count_hex(hex, here, by_size, leader, nests, counts);
        if (PyDict_SetItem(out, key, counts.leader() != nullptr ? counts.leader() : Py_None)) raise_python();
    }
    return result;
}

// dominance._counts as a dict (insertion order as Python's).
py::object counts(py::handle hex, py::object here, bool by_size, long long leader, py::object nest_values) {
    Counts c;
    count_hex(hex.ptr(), here.ptr(), by_size, leader, nest_values.ptr(), c);
    py::dict out;
    for (int i = 0; i < c.n; ++i) {
        PyObject* n = PyLong_FromLongLong(c.at(i).second);
        if (n == nullptr) raise_python();
        int bad = PyDict_SetItem(out.ptr(), c.at(i).first, n);
        Py_DECREF(n);
        if (bad) raise_python();
    }
    return std::move(out);
}

// leader_of(counts(...)) without building the dict.
py::object dominant(py::handle hex, py::object here, bool by_size, long long leader, py::object nest_values) {
    Counts c;
    count_hex(hex.ptr(), here.ptr(), by_size, leader, nest_values.ptr(), c);
    return py::reinterpret_steal<py::object>(or_none(c.leader()));
}

// dominance.leader_of over a dict of counts (str flocks, int counts).
py::object leader_of(py::dict table) {
    Counts c;
    PyObject* key;
    PyObject* value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(table.ptr(), &pos, &key, &value)) {
        if (!PyUnicode_CheckExact(key)) raise_type("a flock id must be a str");
        long long v = as_count(value);
        if (c.n < Counts::inline_size) c.fixed[c.n] = {key, v}; else c.more.emplace_back(key, v);
        ++c.n;
    }
    return py::reinterpret_steal<py::object>(or_none(c.leader()));
}

// A dict of counts {flock: int} in the order `c` holds them.
PyObject* counts_dict(const Counts& c) {
    PyObject* out = PyDict_New();
    if (out == nullptr) raise_python();
    for (int i = 0; i < c.n; ++i) {
        PyObject* n = PyLong_FromLongLong(c.at(i).second);
        int bad = n == nullptr ? -1 : PyDict_SetItem(out, c.at(i).first, n);
        Py_XDECREF(n);
        if (bad) { Py_DECREF(out); raise_python(); }
    }
    return out;
}

bool in_set(PyObject* set, PyObject* item) {
    if (!PyAnySet_Check(set)) raise_type("expected a set");
    int found = PySet_Contains(set, item);
    if (found < 0) raise_python();
    return found != 0;
}

// objective_plans._sum_pieces after its setup (which stays in Python: the kind's weights, the hexes allowed):
// {hex id or "": {owner: count or tokens}} of the pieces in the hexes `ids` (None: every hex), leaving out the hex
// ids in `banned` and hexes whose terrain is not in `terrains` (None: any). Per hex, a hex without any piece
// summed is left out; otherwise one total under "".
py::object sum_pieces(py::dict hexes, py::object ids, py::dict leaders, py::object banned, py::object terrains,
                      bool per_hex, bool kiwi, py::object size, bool counting, long long leader_value, bool nests,
                      bool nests_as_kiwi, bool markers, py::dict values) {
    bool sized = !size.is_none();
    long long want = sized ? as_count(size.ptr()) : 0;
    if (!PyAnySet_Check(banned.ptr())) raise_type("banned must be a set");
    bool any_banned = PySet_GET_SIZE(banned.ptr()) > 0;
    PyObject* out = PyDict_New();
    if (out == nullptr) raise_python();
    py::object result = py::reinterpret_steal<py::object>(out);
    Counts total;
    // (hex id, Hex) in the order Python visits them, borrowed from the hexes dict and the ids list
    std::vector<std::pair<PyObject*, PyObject*>> visit;
    if (ids.is_none()) {
        PyObject* key;
        PyObject* value;
        Py_ssize_t pos = 0;
        visit.reserve(static_cast<size_t>(PyDict_GET_SIZE(hexes.ptr())));
        while (PyDict_Next(hexes.ptr(), &pos, &key, &value)) visit.emplace_back(key, value);
    } else {
        if (!PyList_CheckExact(ids.ptr())) raise_type("ids must be a list or None");
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(ids.ptr()); ++i) {
            PyObject* hex_id = PyList_GET_ITEM(ids.ptr(), i);
            PyObject* h = PyDict_GetItemWithError(hexes.ptr(), hex_id);
            if (h == nullptr) {
                if (!PyErr_Occurred()) PyErr_SetObject(PyExc_KeyError, hex_id);
                raise_python();
            }
            visit.emplace_back(hex_id, h);
        }
    }
    for (const auto& [hex_id, h] : visit) {
        if (Py_TYPE(h) != hex_type) raise_type("the island's hexes must be kcd.core.state.Hex values");
        PyObject* stack = slot(h, off_kiwi);
        PyObject* nest = slot(h, off_nest);
        PyObject* domain = slot(h, off_domain);
        if (!PyTuple_CheckExact(stack)) raise_type("a Hex's kiwi must be a tuple");
        PyObject* here = PyDict_GetItemWithError(leaders.ptr(), hex_id);
        if (here == nullptr && PyErr_Occurred()) raise_python();
        if (PyTuple_GET_SIZE(stack) == 0 && nest == Py_None && here == nullptr && (!markers || domain == Py_None))
            continue;
        if (any_banned && in_set(banned.ptr(), hex_id)) continue;
        if (!terrains.is_none() && !in_set(terrains.ptr(), slot(h, off_terrain))) continue;
        Counts own;
        Counts& acc = per_hex ? own : total;
        if (kiwi) {
            Py_ssize_t n = PyTuple_GET_SIZE(stack);
            for (Py_ssize_t j = 0; j < n; ++j) {
                PyObject* k = PyTuple_GET_ITEM(stack, j);
                if (Py_TYPE(k) != kiwi_type) raise_type("a Hex's stacks must be kcd.core.state.Kiwi values");
                long long ks = as_count(slot(k, off_size));
                if (!sized || ks == want) acc.add(slot(k, off_flock), counting ? 1 : ks);
            }
        }
        if (here != nullptr && leader_value) {
            if (!PyList_CheckExact(here)) raise_type("the Leaders of a hex must be a list");
            for (Py_ssize_t j = 0; j < PyList_GET_SIZE(here); ++j) acc.add(PyList_GET_ITEM(here, j), leader_value);
        }
        if (nest != Py_None && nests) {
            if (!PyTuple_CheckExact(nest) || PyTuple_GET_SIZE(nest) != 2) {
                PyErr_SetString(PyExc_ValueError, "a Hex's nest must be a (flock, nest id) pair");
                raise_python();
            }
            PyObject* value = PyDict_GetItemWithError(values.ptr(), PyTuple_GET_ITEM(nest, 1));
            if (value == nullptr && PyErr_Occurred()) raise_python();
            long long v = value == nullptr ? 0 : as_count(value);
            long long n = nests_as_kiwi ? v : (counting ? 1 : v);
            if (n || !nests_as_kiwi) acc.add(PyTuple_GET_ITEM(nest, 0), n);
        }
        if (markers && domain != Py_None) {
            if (!PyTuple_CheckExact(domain) || PyTuple_GET_SIZE(domain) != 2) {
                PyErr_SetString(PyExc_ValueError, "a Hex's domain must be a (flock, terrain) pair");
                raise_python();
            }
            acc.add(PyTuple_GET_ITEM(domain, 0), counting ? 1 : 0);
        }
        if (per_hex && own.n) {
            PyObject* d = counts_dict(own);
            int bad = PyDict_SetItem(out, hex_id, d);
            Py_DECREF(d);
            if (bad) raise_python();
        }
    }
    if (!per_hex) {
        PyObject* d = counts_dict(total);
        int bad = PyDict_SetItemString(out, "", d);
        Py_DECREF(d);
        if (bad) raise_python();
    }
    return result;
}

bool same(PyObject* a, PyObject* b) {
    if (a == b) return true;
    int eq = PyObject_RichCompareBool(a, b, Py_EQ);
    if (eq < 0) raise_python();
    return eq != 0;
}

PyObject* leaders_at(py::dict& leaders, PyObject* hex_id) {
    PyObject* here = PyDict_GetItemWithError(leaders.ptr(), hex_id);   // borrowed
    if (here == nullptr && PyErr_Occurred()) raise_python();
    return here;
}

PyObject* checked_hex(PyObject* h) {
    if (hex_type == nullptr || Py_TYPE(h) != hex_type) raise_type("the island's hexes must be kcd.core.state.Hex values");
    if (!PyTuple_CheckExact(slot(h, off_kiwi))) raise_type("a Hex's kiwi must be a tuple");
    return h;
}

// build._hexes without flock-power weights: the hexes without a Nest where `flock` has at least `need` tokens by
// the build weights and dominates (a hex without its Leader is looked at only when its own Kiwi's sizes reach
// `need`); `leaders` maps a hex id to the flocks whose Leader stands there, in seat order.
py::list build_hexes(py::dict hexes, py::object flock, py::object leader_hex, long long need, py::dict leaders,
                     bool by_size, long long leader) {
    py::list out;
    PyObject* me = flock.ptr();
    PyObject* key;
    PyObject* value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(hexes.ptr(), &pos, &key, &value)) {
        PyObject* h = checked_hex(value);
        if (slot(h, off_nest) != Py_None) continue;
        PyObject* hex_id = slot(h, off_id);
        if (!same(hex_id, leader_hex.ptr())) {
            PyObject* stack = slot(h, off_kiwi);
            long long own = 0;
            for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(stack); ++i) {
                PyObject* k = PyTuple_GET_ITEM(stack, i);
                if (Py_TYPE(k) != kiwi_type) raise_type("a Hex's stacks must be kcd.core.state.Kiwi values");
                if (same(slot(k, off_flock), me)) own += as_count(slot(k, off_size));
            }
            if (own == 0 || own < need) continue;
        }
        Counts c;
        count_hex(h, leaders_at(leaders, hex_id), by_size, leader, nullptr, c);
        long long mine = 0;
        for (int i = 0; i < c.n; ++i) {
            if (same(c.at(i).first, me)) { mine = c.at(i).second; break; }
        }
        PyObject* top = c.leader();
        if (mine >= need && top != nullptr && same(top, me)) out.append(py::reinterpret_borrow<py::object>(hex_id));
    }
    return out;
}

// marking.markable's hexes without flock-power weights: the hexes without a domain marker, of a terrain in `have`
// (None: any), where `flock` has a Kiwi, its Leader (at `leader_hex`) or its own Nest, and dominates by the
// marking weights (`nest_values` None: Nests do not count).
py::list mark_hexes(py::dict hexes, py::object flock, py::object leader_hex, py::object have, py::dict leaders,
                    bool by_size, long long leader, py::object nest_values) {
    py::list out;
    PyObject* me = flock.ptr();
    bool any_terrain = have.is_none();
    PyObject* key;
    PyObject* value;
    Py_ssize_t pos = 0;
    while (PyDict_Next(hexes.ptr(), &pos, &key, &value)) {
        PyObject* h = checked_hex(value);
        if (slot(h, off_domain) != Py_None) continue;
        if (!any_terrain && !in_set(have.ptr(), slot(h, off_terrain))) continue;
        PyObject* hex_id = slot(h, off_id);
        bool present = leader_hex.ptr() != Py_None && same(hex_id, leader_hex.ptr());
        PyObject* stack = slot(h, off_kiwi);
        for (Py_ssize_t i = 0; !present && i < PyTuple_GET_SIZE(stack); ++i) {
            PyObject* k = PyTuple_GET_ITEM(stack, i);
            if (Py_TYPE(k) != kiwi_type) raise_type("a Hex's stacks must be kcd.core.state.Kiwi values");
            present = same(slot(k, off_flock), me);
        }
        if (!present) {
            PyObject* nest = slot(h, off_nest);
            if (nest == Py_None) continue;
            if (!PyTuple_CheckExact(nest) || PyTuple_GET_SIZE(nest) != 2) {
                PyErr_SetString(PyExc_ValueError, "a Hex's nest must be a (flock, nest id) pair");
                raise_python();
            }
            if (!same(PyTuple_GET_ITEM(nest, 0), me)) continue;
        }
        Counts c;
        count_hex(h, leaders_at(leaders, hex_id), by_size, leader, nest_values.ptr(), c);
        PyObject* top = c.leader();
        if (top != nullptr && same(top, me)) out.append(py::reinterpret_borrow<py::object>(hex_id));
    }
    return out;
}

}  // namespace

PYBIND11_MODULE(_native, m) {
    m.doc() = "Compiled kernels of the Kiwi Chow Down rules machine (exact ports; the Python code is the reference).";
    m.def("bind_types", &bind_types, py::arg("hex"), py::arg("kiwi"),
          "Tell the kernels the island's Hex and Kiwi classes (kcd.core.native does, on import).");
    m.attr("KERNELS") = py::make_tuple("dominant_all", "counts", "dominant", "leader_of", "sum_pieces", "build_hexes",
                                      "mark_hexes");
    m.def("dominant_all", &dominant_all, py::arg("hexes"), py::arg("leaders"), py::arg("by_size"),
          py::arg("leader"), py::arg("nest_values"),
          "{hex id: dominant flock or None} for every hex (dominance.dominant_all without flock-power weights).");
    m.def("counts", &counts, py::arg("hex"), py::arg("here"), py::arg("by_size"), py::arg("leader"),
          py::arg("nest_values"), "Each flock's count in one hex (dominance._counts).");
    m.def("dominant", &dominant, py::arg("hex"), py::arg("here"), py::arg("by_size"), py::arg("leader"),
          py::arg("nest_values"), "The dominant flock of one hex, or None (leader_of of dominance._counts).");
    m.def("sum_pieces", &sum_pieces, py::arg("hexes"), py::arg("ids"), py::arg("leaders"), py::arg("banned"),
          py::arg("terrains"), py::arg("per_hex"), py::arg("kiwi"), py::arg("size"), py::arg("counting"),
          py::arg("leader_value"), py::arg("nests"), py::arg("nests_as_kiwi"), py::arg("markers"), py::arg("values"),
          "The pieces of a kind summed by owner, per hex or in all (objective_plans._sum_pieces after its setup).");
    m.def("build_hexes", &build_hexes, py::arg("hexes"), py::arg("flock"), py::arg("leader_hex"), py::arg("need"),
          py::arg("leaders"), py::arg("by_size"), py::arg("leader"),
          "The hexes where a flock may build (build._hexes without flock-power weights).");
    m.def("mark_hexes", &mark_hexes, py::arg("hexes"), py::arg("flock"), py::arg("leader_hex"), py::arg("have"),
          py::arg("leaders"), py::arg("by_size"), py::arg("leader"), py::arg("nest_values"),
          "The hexes a flock may mark by dominance and terrain (marking.markable without flock-power weights).");
    m.def("leader_of", &leader_of, py::arg("counts"),
          "The single highest count's flock, or None on a tie or when empty (dominance.leader_of).");
}
