/* names.c - lookup of canonical ids and aliases by folded name. */
#include "config.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"

typedef struct entry {
	char *folded;
	int value;
} entry;

/* The same names in a trie of their folded bytes, for hg_names_find: every
 * word of every action is looked up, and the trie folds and finds in one
 * walk over the name (a hash of it, like a binary search, first needed
 * the whole folded copy).  Nodes live in one array; a node's children are
 * a list sorted by byte.  A node with many children (the root, and where
 * ids share a prefix, as c01 to c40 do) also indexes them by byte, so that
 * a lookup does not walk the list. */
typedef struct trie_node {
	uint32_t child;		/* first child, 0: none (node 0 is the root) */
	uint32_t sibling;	/* next child of the same parent, 0: none */
	int value;		/* the name ending here, -1: none */
	unsigned char byte;
	unsigned char nchildren;	/* up to WIDE_AT */
	uint32_t wide;		/* 1 + its index in hg_names.wide, 0: none */
	uint32_t names;		/* names ending here or below */
	const char *only;	/* when names is 1: that name, folded */
	int only_value;
} trie_node;

/* The children a node has when it is given an index by byte. */
#define WIDE_AT 4

typedef uint32_t child_index[256];	/* by byte: the child, 0: none */

struct hg_names {
	entry *v;		/* sorted by folded name (suggestions follow this order) */
	size_t n, cap;
	trie_node *node;	/* node[0] is the root */
	size_t nnodes, capnodes;
	child_index *wide;	/* the indexes of the nodes that have one */
	size_t nwide, capwide;
};

/* The child of node `at` for byte b, or 0. */
static inline uint32_t trie_child(const hg_names *t, uint32_t at, unsigned char b)
{
	const trie_node *nd = &t->node[at];
	if (nd->wide)
		return t->wide[nd->wide - 1][b];
	uint32_t c = nd->child;
	while (c && t->node[c].byte < b)
		c = t->node[c].sibling;
	return c && t->node[c].byte == b ? c : 0;
}

/* Links the new node c, for byte b, among the children of `at`. */
static void trie_link(hg_names *t, uint32_t at, uint32_t c, unsigned char b)
{
	/* keep the children sorted by byte */
	uint32_t *link = &t->node[at].child;
	while (*link && t->node[*link].byte < b)
		link = &t->node[*link].sibling;
	t->node[c].sibling = *link;
	*link = c;
	trie_node *nd = &t->node[at];
	if (nd->wide) {
		t->wide[nd->wide - 1][b] = c;
	} else if (++nd->nchildren >= WIDE_AT || at == 0) {
		HG_GROW(t->wide, t->capwide, t->nwide + 1);
		uint32_t *index = t->wide[t->nwide];
		memset(index, 0, sizeof(child_index));
		for (uint32_t k = t->node[at].child; k; k = t->node[k].sibling)
			index[t->node[k].byte] = k;
		t->node[at].wide = (uint32_t)++t->nwide;
	}
}

static uint32_t trie_new_node(hg_names *t, unsigned char b)
{
	HG_GROW(t->node, t->capnodes, t->nnodes + 1);
	trie_node *nd = &t->node[t->nnodes];
	memset(nd, 0, sizeof *nd);
	nd->value = -1;
	nd->byte = b;
	return (uint32_t)t->nnodes++;
}

/* Counts the folded name f (owned by the table) in node `at`. */
static void trie_count(hg_names *t, uint32_t at, const char *f, int value)
{
	trie_node *nd = &t->node[at];
	if (nd->names++ == 0) {
		nd->only = f;
		nd->only_value = value;
	}
}

/* Adds the folded name f with its value (f is not in the trie yet; the
 * table keeps it as long as the trie). */
static void trie_insert(hg_names *t, const char *f, int value)
{
	if (t->nnodes == 0)
		trie_new_node(t, 0);	/* the root */
	uint32_t at = 0;
	for (const unsigned char *p = (const unsigned char *)f; *p; p++) {
		uint32_t c = trie_child(t, at, *p);
		if (!c) {
			c = trie_new_node(t, *p);
			trie_link(t, at, c, *p);
		}
		at = c;
		trie_count(t, at, f, value);
	}
	t->node[at].value = value;
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
	free(t->node);
	free(t->wide);
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
	trie_insert(t, f, value);
	return 0;
}

/* The value of the name below node `at`, reached by `depth` folded bytes,
 * that goes on as `rest` (folded). */
static int find_folded(const hg_names *t, uint32_t at, size_t depth, const char *rest)
{
	for (const unsigned char *q = (const unsigned char *)rest;; q++, depth++) {
		const trie_node *nd = &t->node[at];
		if (at && nd->names == 1)
			return strcmp(nd->only + depth, (const char *)q) == 0 ? nd->only_value : -1;
		if (!*q)
			return nd->value;
		if (!(at = trie_child(t, at, *q)))
			return -1;
	}
}

int hg_names_find(const hg_names *t, const char *name)
{
	if (t->nnodes == 0)
		return -1;
	/* ASCII folds byte for byte (hg_name_fold_to): fold as we walk.  Once
	 * one name is left below, compare the rest with it as a string.  From
	 * the first byte that is not ASCII, fold the rest properly. */
	const unsigned char *p = (const unsigned char *)name;
	uint32_t at = 0;
	size_t depth = 0;
	for (; *p < 0x80; p++, depth++) {
		const trie_node *nd = &t->node[at];
		if (at && nd->names == 1) {
			const unsigned char *o = (const unsigned char *)nd->only + depth;
			for (; *p && *p < 0x80; p++, o++, depth++) {
				unsigned char b = *p >= 'A' && *p <= 'Z' ? (unsigned char)(*p + 32) : *p;
				if (b != *o)
					return -1;
			}
			if (!*p)
				return *o ? -1 : nd->only_value;
			break;	/* not ASCII: the rest is folded below */
		}
		if (!*p)
			return nd->value;
		unsigned char b = *p >= 'A' && *p <= 'Z' ? (unsigned char)(*p + 32) : *p;
		if (!(at = trie_child(t, at, b)))
			return -1;
	}
	char buf[128];
	char *f = buf;
	if (hg_name_fold_to((const char *)p, buf, sizeof buf) >= sizeof buf)
		f = hg_name_fold((const char *)p);
	int r = find_folded(t, at, depth, f);
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
