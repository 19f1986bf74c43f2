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
 * a lookup does not walk the list.
 *
 * The trie is compressed, so that its size follows the number of names,
 * not their length (a data file may hold a long id): a node stands for a
 * run of bytes, from its parent's end to its own `end`, read from `only`,
 * a name that runs through it; a node below which one name alone ends is
 * a leaf that holds that name whole.  A node of two or more names is
 * where they part or where one ends, so there are fewer than two nodes a
 * name. */
typedef struct trie_node {
	uint32_t child;		/* first child, 0: none (node 0 is the root) */
	uint32_t sibling;	/* next child of the same parent, 0: none */
	int value;		/* the name ending at `end`, -1: none */
	unsigned char byte;	/* the first of its bytes */
	unsigned char nchildren;	/* up to WIDE_AT */
	uint32_t wide;		/* 1 + its index in hg_names.wide, 0: none */
	uint32_t names;		/* names ending here or below */
	uint32_t end;		/* bytes from the root to its end (a leaf: 1
				   past its parent's; its name goes on) */
	const char *only;	/* a name through it (a leaf: its name), folded */
	int only_value;		/* a leaf: its name's value */
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

/* Puts node m where child c of `at` was (m takes c's byte). */
static void trie_replace(hg_names *t, uint32_t at, uint32_t c, uint32_t m)
{
	uint32_t *link = &t->node[at].child;
	while (*link != c)
		link = &t->node[*link].sibling;
	*link = m;
	t->node[m].sibling = t->node[c].sibling;
	t->node[c].sibling = 0;
	if (t->node[at].wide)
		t->wide[t->node[at].wide - 1][t->node[c].byte] = m;
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

/* A leaf under `at` (which ends at byte `depth`) for the name f. */
static void trie_leaf(hg_names *t, uint32_t at, size_t depth, const char *f, int value)
{
	unsigned char b = (unsigned char)f[depth];
	uint32_t c = trie_new_node(t, b);
	trie_node *nd = &t->node[c];
	nd->names = 1;
	nd->end = (uint32_t)depth + 1;
	nd->only = f;
	nd->only_value = value;
	trie_link(t, at, c, b);
}

/* The name f, with its value, ends at node `at` (of `end` bytes) or goes
 * on below it in a leaf. */
static void trie_place(hg_names *t, uint32_t at, size_t end, const char *f, int value)
{
	if (f[end])
		trie_leaf(t, at, end, f, value);
	else
		t->node[at].value = value;
}

/* Adds the folded name f with its value (f is not in the trie yet; the
 * table keeps it as long as the trie). */
static void trie_insert(hg_names *t, const char *f, int value)
{
	if (t->nnodes == 0)
		trie_new_node(t, 0);	/* the root */
	uint32_t at = 0;
	size_t depth = 0;		/* node at's end */
	for (;;) {
		if (!f[depth]) {
			t->node[at].value = value;
			return;
		}
		uint32_t c = trie_child(t, at, (unsigned char)f[depth]);
		if (!c) {
			trie_leaf(t, at, depth, f, value);
			return;
		}
		/* f and the node's name agree up to k */
		const char *o = t->node[c].only;
		size_t stop = t->node[c].names == 1 ? (size_t)-1 : t->node[c].end;
		size_t k = depth + 1;
		while (k < stop && f[k] && f[k] == o[k])
			k++;
		if (t->node[c].names == 1) {
			/* The leaf becomes the node where its name and f part. */
			int ov = t->node[c].only_value;
			t->node[c].names = 2;
			t->node[c].end = (uint32_t)k;
			t->node[c].only_value = 0;
			trie_place(t, c, k, o, ov);
			trie_place(t, c, k, f, value);
			return;
		}
		if (k < stop) {
			/* Part-way along the node's bytes: a new node ends there. */
			uint32_t m = trie_new_node(t, (unsigned char)o[depth]);
			trie_node *nm = &t->node[m];
			nm->names = t->node[c].names + 1;
			nm->end = (uint32_t)k;
			nm->only = o;
			trie_replace(t, at, c, m);
			t->node[c].byte = (unsigned char)o[k];
			trie_link(t, m, c, (unsigned char)o[k]);
			trie_place(t, m, k, f, value);
			return;
		}
		t->node[c].names++;
		at = c;
		depth = stop;
	}
}

hg_names *hg_names_new(void)
{
	return hg_try_calloc(1, sizeof(hg_names));
}

/* Room for what one insertion may add (the root and two nodes, each of
 * which may get an index), taken before the table changes: a failure
 * leaves it whole, and trie_insert's own growing then never allocates. */
static int reserve_insertion(hg_names *t)
{
	return HG_TRY_GROW(t->v, t->cap, t->n + 1) != 0 ||
	       HG_TRY_GROW(t->node, t->capnodes, t->nnodes + 3) != 0 ||
	       HG_TRY_GROW(t->wide, t->capwide, t->nwide + 3) != 0 ? -1 : 0;
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
	if (!t)
		return 0;	/* a table there was no memory for (the unit says so) */
	char *f = hg_name_fold(name);
	if (hg_alloc_lost() || reserve_insertion(t) != 0) {
		free(f);	/* (perhaps folded short) */
		return 0;
	}
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

/* The value of the name that goes on from node `at` (of `depth` bytes) as
 * `rest` (folded), or -1. */
static int find_folded(const hg_names *t, uint32_t at, size_t depth, const char *rest)
{
	for (const char *q = rest;;) {
		if (!*q)
			return t->node[at].value;
		uint32_t c = trie_child(t, at, (unsigned char)*q);
		if (!c)
			return -1;
		const trie_node *nd = &t->node[c];
		if (nd->names == 1)
			return strcmp(nd->only + depth, q) == 0 ? nd->only_value : -1;
		size_t len = nd->end - depth;
		if (strncmp(nd->only + depth, q, len) != 0)
			return -1;
		q += len;
		depth = nd->end;
		at = c;
	}
}

/* From node `at` (of `depth` bytes) on, for the unfolded rest of a name
 * whose first `ascii` bytes are ASCII. */
static int find_rest(const hg_names *t, uint32_t at, size_t depth, const char *rest,
		     size_t ascii)
{
	hg_buf f;
	hg_buf_init(&f);
	for (size_t i = 0; i < ascii; i++) {
		unsigned char b = (unsigned char)rest[i];
		hg_buf_putc(&f, (char)(b >= 'A' && b <= 'Z' ? b + 32 : b));
	}
	char *folded = hg_name_fold(rest + ascii);
	hg_buf_puts(&f, folded);
	free(folded);
	int r = find_folded(t, at, depth, f.data ? f.data : "");
	hg_buf_free(&f);
	return r;
}

int hg_names_find(const hg_names *t, const char *name)
{
	if (!t || t->nnodes == 0)
		return -1;
	/* ASCII folds byte for byte (hg_name_fold_to): fold as we walk,
	 * comparing each node's bytes (a leaf's: the rest of its name).  From
	 * the first byte that is not ASCII, fold the rest properly. */
	const unsigned char *p = (const unsigned char *)name;
	uint32_t at = 0;
	size_t depth = 0;
	for (;;) {
		if (*p >= 0x80)
			return find_rest(t, at, depth, (const char *)p, 0);
		if (!*p)
			return t->node[at].value;
		const unsigned char *from = p;
		unsigned char b = *p >= 'A' && *p <= 'Z' ? (unsigned char)(*p + 32) : *p;
		uint32_t c = trie_child(t, at, b);
		if (!c)
			return -1;
		const trie_node *nd = &t->node[c];
		int leaf = nd->names == 1;
		size_t stop = leaf ? (size_t)-1 : nd->end, k = depth;
		const unsigned char *o = (const unsigned char *)nd->only + depth;
		for (; k < stop && *p && *p < 0x80; p++, o++, k++) {
			b = *p >= 'A' && *p <= 'Z' ? (unsigned char)(*p + 32) : *p;
			if (b != *o)
				return -1;
		}
		if (leaf && !*p)
			return *o ? -1 : nd->only_value;
		if (k < stop) {
			if (!*p)
				return -1;	/* the name ends inside the node's bytes */
			return find_rest(t, at, depth, (const char *)from, (size_t)(p - from));
		}
		at = c;
		depth = stop;
	}
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
	if (!t)
		return 0;
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
