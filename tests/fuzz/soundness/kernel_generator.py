#!/usr/bin/python3
"""Generates kernels and a launch manifest for the differential soundness fuzzer.

usage: kernel_generator.py --seed S --count N --out DIR [--mutation-share F]

Writes DIR/manifest.json (launch_manifest.py) and DIR/kernels/*.cl (+ included headers): N launches, each
its own kernel with a unique name (fz<seed>_<i>), a share F (default 0.35) of them mutations of the corpus
kernels in tests/kernels/ (corpus_mutations.py), the others from the grammar (grammar_kernels.py). The same
seed and corpus give the same files, byte for byte.
"""
import argparse
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_mutations  # noqa: E402
import grammar_kernels  # noqa: E402
import launch_manifest  # noqa: E402


def generate(seed, count, mutation_share=0.35, corpus=None):
    """The launches of one batch (deterministic in seed, count and the corpus)."""
    rng = random.Random(seed)
    corpus = corpus if corpus is not None else corpus_mutations.load_corpus()
    launches = []
    for i in range(count):
        name = f"fz{seed}_{i}"
        launch = None
        if corpus and rng.random() < mutation_share:
            for _ in range(20):
                launch = corpus_mutations.generate(rng, name, corpus)
                if launch:
                    break
        if launch is None:
            launch = grammar_kernels.generate(rng, name)
        launches.append(launch)
    return launches


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--out", required=True)
    parser.add_argument("--mutation-share", type=float, default=0.35)
    args = parser.parse_args()
    launches = generate(args.seed, args.count, args.mutation_share)
    print(launch_manifest.write(args.out, args.seed, launches))


if __name__ == "__main__":
    main()
