/* names.c - lookup of canonical ids and aliases by folded name. */
#include "config.h"

#include <sodium.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct entry {
	char *folded;
	int value;
} entry;

/* The same entries by hash, for hg_names_find: a binary search costs a
 * string comparison per step, and every word of every action is looked up. */
typedef struct slot {
	const char *folded;	/* NULL: empty */
	size_t len;
	int value;
} slot;

struct hg_names {
	entry *v;		/* sorted by folded name (suggestions follow this order) */
	size_t n, cap;
	slot *h;		/* open addressing, linear probing */
	size_t hcap;		/* a power of two, at least twice n; 0 when empty */
};

/* SipHash-2-4 (libsodium's short-input hash) with a fixed key: the table
 * needs an even spread, not secrecy. */
static size_t name_hash(const char *f, size_t len)
{
	static const unsigned char key[crypto_shorthash_KEYBYTES];
	unsigned char out[crypto_shorthash_BYTES];
	crypto_shorthash(out, (const unsigned char *)f, len, key);
	uint64_t h;
	memcpy(&h, out, sizeof h);
	return (size_t)h;
}

static void hash_insert(slot *h, size_t hcap, const char *f, size_t len, int value)
{
	size_t i = name_hash(f, len) & (hcap - 1);
	while (h[i].folded)
		i = (i + 1) & (hcap - 1);
	h[i].folded = f;
	h[i].len = len;
	h[i].value = value;
}

static void rehash(hg_names *t)
{
	size_t cap = 16;
	while (cap < 2 * t->n)
		cap *= 2;
	free(t->h);
	t->h = hg_xcalloc(cap, sizeof *t->h);
	t->hcap = cap;
	for (size_t i = 0; i < t->n; i++)
		hash_insert(t->h, cap, t->v[i].folded, strlen(t->v[i].folded), t->v[i].value);
}

hg_names *hg_names_new(void)
{
	return hg_xcalloc(1, sizeof(hg_names));
}

void hg_names_free(hg_names *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->n; i++)
		free(t->v[i].folded);
	free(t->v);
	free(t->h);
	free(t);
}

/* Index of the first entry not less than `key`. */
static size_t lower_bound(const hg_names *t, const char *key)
{
	size_t lo = 0, hi = t->n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (strcmp(t->v[mid].folded, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

int hg_names_add(hg_names *t, const char *name, int value, int *clash)
{
	char *f = hg_name_fold(name);
	size_t i = lower_bound(t, f);
	if (i < t->n && strcmp(t->v[i].folded, f) == 0) {
		free(f);
		if (t->v[i].value == value)
			return 0;
		if (clash)
			*clash = t->v[i].value;
		return -1;
	}
	HG_GROW(t->v, t->cap, t->n + 1);
	memmove(t->v + i + 1, t->v + i, (t->n - i) * sizeof *t->v);
	t->v[i].folded = f;
	t->v[i].value = value;
	t->n++;
	if (2 * t->n > t->hcap)
		rehash(t);
	else
		hash_insert(t->h, t->hcap, f, strlen(f), value);
	return 0;
}

int hg_names_find(const hg_names *t, const char *name)
{
	/* Looked up for every word of every action: fold on the stack. */
	char buf[128];
	char *f = buf;
	size_t len = hg_name_fold_to(name, buf, sizeof buf);
	if (len >= sizeof buf)
		f = hg_name_fold(name);
	int r = -1;
	if (t->hcap) {
		size_t i = name_hash(f, len) & (t->hcap - 1);
		for (; t->h[i].folded; i = (i + 1) & (t->hcap - 1))
			if (t->h[i].len == len && memcmp(t->h[i].folded, f, len) == 0) {
				r = t->h[i].value;
				break;
			}
	}
	if (f != buf)
		free(f);
	return r;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	if (la > 64 || lb > 64)
		return (size_t)-1;
	size_t prev[65], cur[65];
	for (size_t j = 0; j <= lb; j++)
		prev[j] = j;
	for (size_t i = 1; i <= la; i++) {
		cur[0] = i;
		for (size_t j = 1; j <= lb; j++) {
			size_t sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
			size_t del = prev[j] + 1, ins = cur[j - 1] + 1;
			cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
		}
		memcpy(prev, cur, (lb + 1) * sizeof *prev);
	}
	return prev[lb];
}

size_t hg_names_suggest(const hg_names *t, const char *name, int *values, size_t max)
{
	char *f = hg_name_fold(name);
	size_t limit = strlen(f) / 3 + 1, found = 0;
	for (size_t d = 0; d <= limit && found < max; d++)
		for (size_t i = 0; i < t->n && found < max; i++) {
			if (edit_distance(f, t->v[i].folded) != d)
				continue;
			int dup = 0;
			for (size_t k = 0; k < found; k++)
				dup |= values[k] == t->v[i].value;
			if (!dup)
				values[found++] = t->v[i].value;
		}
	free(f);
	return found;
}
