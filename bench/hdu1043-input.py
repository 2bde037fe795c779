#!/usr/bin/env python3
"""Writes N random HDU 1043 lines (uniform shuffles, so about half are unsolvable).

Usage: hdu1043-input.py [N] [SEED] > boards.txt      (defaults: 5000 1043)
"""
import random
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 5000
rng = random.Random(int(sys.argv[2]) if len(sys.argv) > 2 else 1043)
for _ in range(n):
    cells = list("12345678x")
    rng.shuffle(cells)
    print(rng.choice([" ", "  "]).join(cells))
