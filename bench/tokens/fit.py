"""Fits the token estimate's cost table (encoders/src/tokens/cost.rs) to answers counted by a real
o200k tokenizer.

Input: the lines `token-fit` prints (path, o200k tokens, piece features) for a training set;
optionally a second file of held-out answers to report on. Output: the fitted COST, DIGITS,
SPACE, ESCAPE and GLUED constants, ready to paste, and the error on both sets.

The fit minimises the relative error of each answer's estimate (rows weighted by 1/tokens),
with a ridge pulling every weight towards a smooth prior so that rare pieces keep sensible
costs, and lengths bucketed to keep the weights apart. Needs numpy and scipy.

    python3 bench/tokens/fit.py train.tsv [held-out.tsv]
"""
import sys

import numpy as np
from scipy.optimize import lsq_linear

BUCKET = [0, 1, 2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 7, 8, 8, 8, 8]
CLASSES = ["Lower", "Capital", "Upper", "Known", "Punct"]
RIDGE = 0.03


def bucket(name):
    cls, joined, length = name.split("-")
    if cls in ("Digits", "Space", "Escape"):
        return name
    if cls == "Glued":
        return "%s-%s-%d" % (cls, joined, min(int(length), 8))
    return "%s-%s-%d" % (cls, joined, BUCKET[int(length)])


def read(path):
    rows = []
    for line in open(path):
        name, real, features = line.rstrip("\n").split("\t")
        counts = {}
        for cell in features.split():
            key, value = cell.rsplit("=", 1)
            key = bucket(key)
            counts[key] = counts.get(key, 0) + int(value)
        rows.append((name, int(real), counts))
    return rows


def prior(name):
    cls, _, length = name.split("-")
    if cls in ("Digits", "Space", "Known", "Escape"):
        return 1.0
    return 1.0 + max(0, int(length) - 3) * 0.3


def matrix(rows, index):
    a = np.zeros((len(rows), len(index)))
    y = np.zeros(len(rows))
    for r, (_, real, counts) in enumerate(rows):
        for key, value in counts.items():
            if key in index:
                a[r, index[key]] = value
        y[r] = real
    return a, y


def report(label, rows, index, weights):
    a, y = matrix(rows, index)
    ratio = (a @ weights) / y
    by_format = {}
    for (name, _, _), r in zip(rows, ratio):
        by_format.setdefault(name.rsplit(".", 1)[-1], []).append(r)
    for fmt, values in sorted(by_format.items()):
        v = np.array(values)
        print("// %s %-8s n %4d  estimate/o200k mean %.3f  min %.3f  max %.3f" % (label, fmt, len(v), v.mean(), v.min(), v.max()))


def main():
    train = read(sys.argv[1])
    names = sorted({key for _, _, counts in train for key in counts})
    index = {name: i for i, name in enumerate(names)}
    a, y = matrix(train, index)
    weight = 1 / y
    system = np.vstack([a * weight[:, None], np.eye(len(names)) * RIDGE])
    target = np.concatenate([y * weight, np.array([prior(n) for n in names]) * RIDGE])
    weights = lsq_linear(system, target, bounds=(0.3, 8)).x
    fitted = dict(zip(names, weights))
    report("train", train, index, weights)
    if len(sys.argv) > 2:
        report("held out", read(sys.argv[2]), index, weights)
    print("const COST: [[[f32; 17]; 2]; 5] = [")
    for cls in CLASSES:
        print("    // %s\n    [" % cls)
        for joined in (0, 1):
            row = []
            for length in range(17):
                value = fitted.get("%s-%d-%d" % (cls, joined, BUCKET[length]))
                row.append(value if value is not None else (row[-1] if row else 1.0))
            print("        [" + ", ".join("%.2f" % v for v in row) + "],")
        print("    ],")
    print("];")
    print("const DIGITS: [f64; 3] = [%s];" % ", ".join("%.2f" % fitted.get("Digits-0-%d" % n, 1.0) for n in (1, 2, 3)))
    print("const SPACE: f64 = %.2f;" % fitted.get("Space-0-1", 1.0))
    print("const ESCAPE: f64 = %.2f;" % fitted.get("Escape-0-2", 1.0))
    glued = []
    for length in range(9):
        value = fitted.get("Glued-0-%d" % length)
        glued.append(value if value is not None else (glued[-1] if glued else 1.0))
    print("const GLUED: [f64; 9] = [%s];" % ", ".join("%.2f" % v for v in glued))


if __name__ == "__main__":
    main()
