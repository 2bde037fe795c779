/* A straightforward whole-space BFS, the reference point for `npuzzle analyze`:
 * one byte per permutation (its distance, 255 = unseen), indexed by Lehmer rank, and
 * layer-by-layer scans (no queue). Usage: bfs_bytes W H     (goal: 1..n-1, blank last)
 * Build: cc -O2 -o bfs_bytes bfs_bytes.c */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n, w, h;
static uint64_t fact[21];

static uint64_t rank(const int *p) {
    uint64_t r = 0;
    for (int i = 0; i < n; i++) {
        int smaller = 0;
        for (int j = i + 1; j < n; j++) smaller += p[j] < p[i];
        r += smaller * fact[n - 1 - i];
    }
    return r;
}

static void unrank(uint64_t r, int *p) {
    int used[32] = {0};
    for (int i = 0; i < n; i++) {
        uint64_t d = r / fact[n - 1 - i];
        r %= fact[n - 1 - i];
        for (int v = 0; v < n; v++) {
            if (used[v]) continue;
            if (d-- == 0) { p[i] = v; used[v] = 1; break; }
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: bfs_bytes W H\n"); return 2; }
    w = atoi(argv[1]); h = atoi(argv[2]); n = w * h;
    fact[0] = 1;
    for (int i = 1; i <= 20; i++) fact[i] = fact[i - 1] * i;
    uint8_t *dist = malloc(fact[n]);
    memset(dist, 255, fact[n]);
    int p[32];
    for (int i = 0; i < n - 1; i++) p[i] = i + 1;
    p[n - 1] = 0;
    dist[rank(p)] = 0;
    uint64_t count = 1, total = 1;
    int d = 0;
    printf("%d %llu\n", 0, 1ULL);
    while (count) {
        count = 0;
        for (uint64_t r = 0; r < fact[n]; r++) {
            if (dist[r] != d) continue;
            unrank(r, p);
            int b = 0;
            while (p[b]) b++;
            int nb[4], k = 0;
            if (b % w) nb[k++] = b - 1;
            if (b % w < w - 1) nb[k++] = b + 1;
            if (b >= w) nb[k++] = b - w;
            if (b < n - w) nb[k++] = b + w;
            for (int i = 0; i < k; i++) {
                p[b] = p[nb[i]]; p[nb[i]] = 0;
                uint64_t q = rank(p);
                if (dist[q] == 255) { dist[q] = d + 1; count++; }
                p[nb[i]] = p[b]; p[b] = 0;
            }
        }
        d++;
        if (count) printf("%d %llu\n", d, (unsigned long long)count);
        total += count;
    }
    printf("states %llu max %d\n", (unsigned long long)total, d - 1);
    return 0;
}
