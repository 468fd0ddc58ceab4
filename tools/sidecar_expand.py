#!/usr/bin/env python3
"""Expands the repeat entries of a clcapture sidecar (captures.meta.json, format 3).

A launch that repeats an earlier one's facts is written as {"launch", "instantiation", "like": SLOT, <keys
that differ>}; a full entry with "slot": SLOT fills the slot; in a repeat's "arguments", "same" stands for the
slot's argument at that position (common/include/clcapture/format/SidecarRepeats.h). Scripts that read the
sidecar call load(folder) or expand(meta) and see every entry whole, as in format 2.

    tools/sidecar_expand.py CAPTURE_DIR_OR_META_JSON > expanded.json
"""
import copy
import json
import os
import sys


def expand(meta):
    """Returns `meta` with every repeat entry replaced by the full entry it stands for (in place)."""
    slots = {}
    launches = meta.get("launches", []) if isinstance(meta, dict) else []
    for i, entry in enumerate(launches):
        if not isinstance(entry, dict):
            continue
        if "slot" in entry:
            slot = entry.pop("slot")
            slots[slot] = copy.deepcopy(entry)
            continue
        if "like" not in entry:
            continue
        slot = entry["like"]
        if slot not in slots:
            raise ValueError(f"launches[{i}].like: slot {slot} was not filled by an earlier entry")
        full = copy.deepcopy(slots[slot])
        for key, value in entry.items():
            if key == "like":
                continue
            if key == "arguments" and isinstance(value, list):
                had = full.get("arguments", [])
                if "same" in value and len(had) != len(value):
                    raise ValueError(f"launches[{i}].arguments: \"same\" needs {len(value)} slot arguments")
                full["arguments"] = [had[k] if v == "same" else v for k, v in enumerate(value)]
            else:
                full[key] = value
        slots[slot] = copy.deepcopy(full)
        launches[i] = full
    return meta


def load(path):
    """Reads a capture folder's captures.meta.json (or that file) and expands it."""
    if os.path.isdir(path):
        path = os.path.join(path, "captures.meta.json")
    with open(path, encoding="utf-8") as f:
        return expand(json.load(f))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    json.dump(load(sys.argv[1]), sys.stdout, indent=2)
    sys.stdout.write("\n")
