// How much two threads of this machine share: each workload runs on one thread, then on two at
// once, and the line gives the two threads' throughput over twice one thread's (1.00: two
// independent cores; 0.50: one core's resources shared, as by two hardware threads of one
// core). Medians of 7 alternating rounds.
//
//     clang -O2 -pthread Benchmarks/Probes/core-sharing.c -o /tmp/core-sharing && /tmp/core-sharing
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static double seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

#define MULTIPLIER 6364136223846793005UL

// One chain of dependent multiplies: bound by the multiplier's latency, leaving most of the
// core idle.
static void *latencyBound(void *unused) {
    unsigned long x = 1;
    for (long i = 0; i < 100000000; i++) {
        x = x * MULTIPLIER + 1;
        __asm__ volatile("" : "+r"(x));
    }
    return (void *)x;
}

// Eight independent chains: bound by how many multiplies the core starts per cycle.
static void *throughputBound(void *unused) {
    unsigned long a = 1, b = 2, c = 3, d = 4, e = 5, f = 6, g = 7, h = 8;
    for (long i = 0; i < 30000000; i++) {
        a *= MULTIPLIER; b *= MULTIPLIER; c *= MULTIPLIER; d *= MULTIPLIER;
        e *= MULTIPLIER; f *= MULTIPLIER; g *= MULTIPLIER; h *= MULTIPLIER;
        __asm__ volatile("" : "+r"(a), "+r"(b), "+r"(c), "+r"(d), "+r"(e), "+r"(f), "+r"(g), "+r"(h));
    }
    return (void *)(a ^ b ^ c ^ d ^ e ^ f ^ g ^ h);
}

static void *fill(size_t bytes, int rounds) {
    char *p = malloc(bytes);
    for (int r = 0; r < rounds; r++) {
        memset(p, r + 1, bytes);
        __asm__ volatile("" : : "r"(p) : "memory");
    }
    free(p);
    return NULL;
}

// Stores to a buffer that stays in the core's L2 cache.
static void *cacheFill(void *unused) { return fill(256 << 10, 4000); }

// Stores to a buffer far larger than the caches: bound by memory bandwidth.
static void *memoryFill(void *unused) { return fill(96 << 20, 10); }

static double rate(void *(*work)(void *), int threads) {
    pthread_t t[2];
    double start = seconds();
    for (int i = 0; i < threads; i++) pthread_create(&t[i], NULL, work, NULL);
    for (int i = 0; i < threads; i++) pthread_join(t[i], NULL);
    return threads / (seconds() - start);
}

static int byValue(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void) {
    struct { const char *name; void *(*work)(void *); } loads[] = {
        {"one multiply chain (latency-bound)", latencyBound},
        {"eight multiply chains (throughput-bound)", throughputBound},
        {"memset of 256 KiB (L2-resident)", cacheFill},
        {"memset of 96 MiB (memory-bound)", memoryFill},
    };
    for (int k = 0; k < 4; k++) {
        double ratios[7];
        for (int r = 0; r < 7; r++) {
            double one = rate(loads[k].work, 1), two = rate(loads[k].work, 2);
            ratios[r] = two / (2 * one);
        }
        qsort(ratios, 7, sizeof(double), byValue);
        printf("%-42s two threads / twice one: %.2f (%.2f-%.2f)\n", loads[k].name, ratios[3], ratios[0], ratios[6]);
    }
    return 0;
}
