/* yaml-tree.c - YAML documents as a tree of positioned nodes, built from
 * libyaml's event parser (the typed helpers that check its nodes are in
 * yaml-check.c).
 *
 * The tree is deliberately poorer than YAML: one document, no anchors or
 * aliases (so nothing can expand: no "billion laughs"), scalar keys only,
 * no duplicate keys, no tags beyond the core schema's.  Scalars keep their
 * text; the helpers resolve it by the YAML 1.2 core schema when asked for
 * an integer or a boolean.
 *
 * Beyond the codes in herald.h: data.limit for hostile sizes (64 MiB of
 * text, 1 000 000 nodes, lists and mappings nested YAML_MAX_DEPTH deep,
 * and 100 errors, after which the rest goes unchecked; yaml-tree.h's
 * streaming form lifts the size limit and counts nodes per item), and
 * data.io for a file that cannot be read.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <yaml.h>

#include "yaml-tree.h"

/* Limits on hostile data.  The depth limit leaves room for an HGN record
 * written as YAML with variations nested HG_MAX_NESTING deep (each
 * variation costs two levels: its list and the node mapping inside). */
#define YAML_MAX_BYTES (64u * 1024 * 1024)
#define YAML_MAX_DEPTH (2 * HG_MAX_NESTING + 16)
#define YAML_MAX_NODES 1000000
#define YAML_MAX_ERRORS 100	/* then the rest is not checked */

/* Characters of a scalar quoted in a message before it is cut short. */

#define TAG_PREFIX "tag:yaml.org,2002:"

/* A document loaded whole keeps its nodes, their texts and their lists in
 * an arena, freed at once with it: node by node, the mallocs and frees
 * were an eighth of a game's start-up.  A streamed document (one item at a
 * time, hg_yaml_load_items) frees each item as it goes, so its nodes are
 * malloc's. */
typedef struct ydoc {
	hg_ydoc pub;			/* first: what callers see */
	struct hg_arena *arena;		/* NULL: the nodes are malloc's */
} ydoc;

/* ------------------------------------------------------------------------
 * Loading.
 * ------------------------------------------------------------------------ */
typedef struct loader {
	yaml_parser_t parser;
	hg_ydoc *doc;
	const char *text;
	size_t len;
	hg_diags *d;
	ynode *stack[YAML_MAX_DEPTH];	/* the open collections */
	size_t depth;
	size_t nodes;			/* in the tree now */
	size_t max_nodes;
	/* Streaming (hg_yaml_load_items): the items of the list under
	 * items_key in the top-level mapping go to item_fn. */
	const char *items_key;
	hg_yaml_item_fn item_fn;
	void *item_ctx;
	size_t errors_at_item;		/* d->nerrors when the item began */
	size_t errors_at_event;		/* d->nerrors when this event began */
	unsigned documents;
	int failed;			/* a diagnostic: drop the document */
	size_t errors_at_start;		/* d->nerrors before loading (or this call) */
	size_t errors_before;		/* reported by the calls before (a stream) */
	int gave_up;			/* errors went unreported */
	/* A stream (hg_yaml_items_open): read from fp, an item at a time. */
	FILE *fp;
	size_t bytes_read;		/* from fp */
	size_t region_start;		/* where the open item, or the text
					   since the last one, began */
	int item_capped;		/* that passed HG_YAML_ITEM_MAX_BYTES */
	int item_done;			/* an item went to item_fn: pause */
	int over;			/* the end, or a fatal error */
} loader;

static hg_pos mark_pos(const loader *l, yaml_mark_t m)
{
	/* libyaml's marks count from 0, and its columns count characters. */
	hg_pos p = { l->doc->file, (unsigned)m.line + 1, (unsigned)m.column + 1 };
	return p;
}

/* The position of byte `off` of the (UTF-8) text: for reader errors, which
 * libyaml reports as a byte offset only. */
static hg_pos offset_pos(const loader *l, size_t off)
{
	hg_pos p = { l->doc->file, 1, 1 };
	if (!l->text) {		/* a stream: the text is gone */
		p.line = p.col = 0;
		return p;
	}
	size_t i = 0;
	if (l->len >= 3 && memcmp(l->text, "\xEF\xBB\xBF", 3) == 0)
		i = 3;		/* the byte order mark takes no column */
	for (; i < off && i < l->len; i++) {
		unsigned char c = (unsigned char)l->text[i];
		if (c == '\n' || (c == '\r' && (i + 1 >= l->len || l->text[i + 1] != '\n'))) {
			p.line++;
			p.col = 1;
		} else if ((c & 0xC0) != 0x80 && c != '\r') {
			p.col++;
		}
	}
	return p;
}

/* The arena of the document being loaded, or NULL (streamed). */
static struct hg_arena *doc_arena(const loader *l)
{
	return ((const ydoc *)l->doc)->arena;
}

/* The allocations below return NULL when memory runs out inside a unit
 * of work that reports it (util.c; elsewhere they abort): the loader then
 * stops, and the document is dropped. */

/* Room for `size` bytes, zeroed, for the document being loaded, or NULL. */
static void *doc_mem(const loader *l, size_t size)
{
	struct hg_arena *a = doc_arena(l);
	if (!a)
		return hg_try_calloc(1, size);
	/* nodes and lists of pointers: aligned for those only */
	void *p = hg_arena_try_alloc(a, size, _Alignof(ynode));
	if (p)
		memset(p, 0, size);
	return p;
}

/* A copy of the len bytes at s, NUL-terminated, for the document, or NULL. */
static char *doc_strndup(const loader *l, const char *s, size_t len)
{
	struct hg_arena *a = doc_arena(l);
	if (!a)
		return hg_try_strndup(s, len);
	char *p = len < (size_t)-1 ? hg_arena_try_alloc(a, len + 1, 1) : NULL;
	if (!p)
		return NULL;
	memcpy(p, s, len);
	p[len] = '\0';
	return p;
}

/* Room in y's list for one more item: 0, or -1.  An open collection's
 * list is malloc's, even in a document with an arena: the arena gets it,
 * exactly as long, when the collection ends (settle_items), rather than
 * every list it outgrew on the way. */
static int items_room(ynode *y)
{
	return HG_TRY_GROW(y->pub.items, y->cap, y->pub.n + 1);
}

/* The collection y has ended (or loading has): in a document with an
 * arena, its list moves there.  With no room there, the list is emptied
 * (its nodes are the arena's) and loading fails. */
static void settle_items(loader *l, ynode *y)
{
	if (!doc_arena(l) || !y->pub.items)
		return;
	hg_ynode **items = doc_mem(l, y->pub.n * sizeof *items);
	if (items)
		memcpy(items, y->pub.items, y->pub.n * sizeof *items);
	else
		l->failed = 1;
	free(y->pub.items);
	y->pub.items = items;
	y->pub.n = items ? y->pub.n : 0;
	y->cap = y->pub.n;
}

/* Frees the node (malloc's) and everything under it; returns how many
 * nodes. */
static size_t node_free(ynode *y)
{
	if (!y)
		return 0;
	size_t n = 1;
	if (y->pub.kind == HG_Y_SCALAR)
		free(y->pub.scalar);
	for (size_t i = 0; i < y->pub.n; i++)
		n += node_free((ynode *)y->pub.items[i]);
	free(y->pub.items);
	free(y);
	return n;
}

static void syntax_error(loader *l)
{
	yaml_parser_t *p = &l->parser;
	const char *problem = p->problem ? p->problem : "malformed YAML";
	hg_diag *dg;
	if (p->error == YAML_READER_ERROR) {
		hg_pos pos = l->parser.encoding == YAML_UTF8_ENCODING ||
			     l->parser.encoding == YAML_ANY_ENCODING
			     ? offset_pos(l, p->problem_offset)
			     : (hg_pos){ l->doc->file, 0, 0 };
		if (p->problem_value != -1)
			dg = hg_diag_add(l->d, HG_ERROR, pos, "data.syntax", "%s (byte 0x%02x)",
					 problem, (unsigned)p->problem_value & 0xFFu);
		else
			dg = hg_diag_add(l->d, HG_ERROR, pos, "data.syntax", "%s", problem);
	} else if (p->error == YAML_MEMORY_ERROR) {
		hg_pos pos = { l->doc->file, 0, 0 };
		dg = hg_diag_add(l->d, HG_ERROR, pos, "data.syntax",
				 "out of memory while parsing YAML");
	} else {
		dg = hg_diag_add(l->d, HG_ERROR, mark_pos(l, p->problem_mark),
				 "data.syntax", "%s", problem);
		if (p->context)
			hg_diag_note(dg, "%s that starts at line %u, column %u", p->context,
				     (unsigned)p->context_mark.line + 1,
				     (unsigned)p->context_mark.column + 1);
	}
	l->failed = 1;
}

/* A limit on hostile data: "<what> more than <limit> <unit>". */
static void limit_error(loader *l, yaml_mark_t m, const char *what, int limit,
			const char *unit)
{
	hg_diag_add(l->d, HG_ERROR, mark_pos(l, m), "data.limit", "%s more than %d %s",
		    what, limit, unit);
	l->failed = 1;
}

static void anchor_error(loader *l, yaml_mark_t m, const char *anchor, int alias)
{
	hg_diag *dg = hg_diag_add(l->d, HG_ERROR, mark_pos(l, m), "data.alias",
				  alias ? "alias '*%s' is not supported"
					: N_("anchor '&%s' is not supported"), anchor);
	hg_diag_note(dg, "herald's data files do not use anchors and aliases: "
		     "write each value out in full");
	l->failed = 1;
}

static const char *short_tag(const char *tag, hg_buf *b)
{
	hg_buf_clear(b);
	if (strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)) == 0)
		hg_buf_printf(b, "!!%s", tag + strlen(TAG_PREFIX));
	else
		hg_buf_puts(b, tag);
	return b->data;
}

/* Tags: the core schema's only (YAML 1.2, section 10.3), each on a node
 * it fits.  Returns 0, or -1 after a diagnostic. */
static int check_tag(loader *l, const char *tag, hg_ykind kind, const char *value,
		     yaml_mark_t m, int *plain)
{
	if (!tag)
		return 0;
	const char *t = strncmp(tag, TAG_PREFIX, strlen(TAG_PREFIX)) == 0
			? tag + strlen(TAG_PREFIX) : NULL;
	int ok = 0, known = 1;
	if (strcmp(tag, "!") == 0) {
		ok = 1;		/* non-specific: a string, a list, a mapping */
		*plain = 0;
	} else if (!t) {
		known = 0;
	} else if (strcmp(t, "map") == 0) {
		ok = kind == HG_Y_MAP;
	} else if (strcmp(t, "seq") == 0) {
		ok = kind == HG_Y_SEQ;
	} else if (strcmp(t, "str") == 0) {
		ok = kind == HG_Y_SCALAR;
		*plain = 0;
	} else if (strcmp(t, "null") == 0) {
		ok = kind == HG_Y_SCALAR && hg_ycore_null(value);
		*plain = 1;
	} else if (strcmp(t, "bool") == 0) {
		ok = kind == HG_Y_SCALAR && hg_ycore_bool(value) >= 0;
		*plain = 1;
	} else if (strcmp(t, "int") == 0) {
		ok = kind == HG_Y_SCALAR && hg_ycore_int(value);
		*plain = 1;
	} else if (strcmp(t, "float") == 0) {
		ok = kind == HG_Y_SCALAR && (hg_ycore_float(value) || hg_ycore_int(value));
		*plain = 1;
	} else {
		known = 0;
	}
	if (ok)
		return 0;
	hg_buf b;
	hg_buf_init(&b);
	if (!known) {
		hg_diag *dg = hg_diag_add(l->d, HG_ERROR, mark_pos(l, m), "data.type",
					  "tag '%s' is not supported", short_tag(tag, &b));
		hg_diag_note(dg, "only the YAML core schema's tags are: "
			     "!!str, !!int, !!float, !!bool, !!null, !!seq, !!map");
	} else if (kind == HG_Y_SCALAR) {
		hg_buf q;
		hg_buf_init(&q);
		hg_quote(&q, value);
		hg_diag_add(l->d, HG_ERROR, mark_pos(l, m), "data.type",
			    "%s is not a valid '%s' value", q.data, short_tag(tag, &b));
		hg_buf_free(&q);
	} else {
		hg_diag_add(l->d, HG_ERROR, mark_pos(l, m), "data.type",
			    "tag '%s' does not fit %s", short_tag(tag, &b), hg_ykind_name(kind));
	}
	hg_buf_free(&b);
	l->failed = 1;
	return -1;
}

/* Streaming: is y an item of the list under items_key in the top-level
 * mapping?  (y's parent is open, so it is the last in its own parent's
 * list.) */
static int is_stream_item(const loader *l, const ynode *y)
{
	const ynode *list = y->parent, *top = list ? list->parent : NULL;
	if (!l->item_fn || !top || top->parent || list->pub.kind != HG_Y_SEQ ||
	    top->pub.kind != HG_Y_MAP || top->pub.n % 2 == 1)
		return 0;
	const hg_ynode *key = top->pub.items[top->pub.n - 2];
	return key->kind == HG_Y_SCALAR && strcmp(key->scalar, l->items_key) == 0;
}

/* A new node, linked into the open collection (or made the root).  NULL
 * when over the node limit. */
static ynode *add_node(loader *l, hg_ykind kind, yaml_mark_t m)
{
	if (++l->nodes > l->max_nodes) {
		limit_error(l, m, l->item_fn ? "one item has" : "the document has",
			    (int)l->max_nodes, "nodes");
		return NULL;
	}
	ynode *parent = l->depth ? l->stack[l->depth - 1] : NULL;
	ynode *y = parent && items_room(parent) != 0 ? NULL : doc_mem(l, sizeof *y);
	if (!y) {
		l->failed = 1;	/* out of memory */
		return NULL;
	}
	y->whole = doc_arena(l) != NULL;
	y->pub.kind = kind;
	y->pub.pos = mark_pos(l, m);
	if (l->depth == 0) {
		l->doc->root = &y->pub;
		return y;
	}
	y->parent = parent;
	parent->pub.items[parent->pub.n++] = &y->pub;
	if (is_stream_item(l, y)) {
		l->errors_at_item = l->errors_at_event;
		l->region_start = l->parser.offset;
	}
	return y;
}

typedef struct keyref {
	const char *text;
	size_t index;
} keyref;

static int keyref_cmp(const void *a, const void *b)
{
	const keyref *x = a, *y = b;
	int c = strcmp(x->text, y->text);
	if (c)
		return c;
	return x->index < y->index ? -1 : x->index > y->index;
}

typedef struct dupkey {
	size_t at, first;	/* indexes of the repeat and of the first */
} dupkey;

static int dupkey_cmp(const void *a, const void *b)
{
	const dupkey *x = a, *y = b;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* Errors reported so far reach the limit: stop checking. */
static int over_budget(const loader *l)
{
	return l->errors_before + (l->d->nerrors - l->errors_at_start) >= YAML_MAX_ERRORS;
}

/* A closed mapping: its keys are scalars, each given once.  The keys are
 * sorted (a mapping may have many), and each repeat is reported at its
 * own key, in document order, pointing to the first. */
static void check_mapping(loader *l, const ynode *map)
{
	size_t npairs = map->pub.n / 2, nkeys = 0;
	keyref *keys = hg_try_calloc(npairs ? npairs : 1, sizeof *keys);
	if (!keys) {
		l->failed = 1;
		return;
	}
	for (size_t i = 0; i < npairs; i++) {
		const hg_ynode *k = map->pub.items[2 * i];
		if (k->kind != HG_Y_SCALAR) {
			if (over_budget(l))
				l->gave_up = 1;
			else
				hg_diag_add(l->d, HG_ERROR, k->pos, "data.type",
					    "a mapping key must be a scalar, found %s",
					    hg_ykind_name(k->kind));
			l->failed = 1;
			continue;
		}
		keys[nkeys].text = k->scalar;
		keys[nkeys].index = 2 * i;
		nkeys++;
	}
	qsort(keys, nkeys, sizeof *keys, keyref_cmp);
	dupkey *dups = NULL;
	size_t ndups = 0, cap = 0, first = 0;
	for (size_t i = 1; i < nkeys; i++) {
		if (strcmp(keys[i].text, keys[first].text) != 0) {
			first = i;
			continue;
		}
		if (HG_TRY_GROW(dups, cap, ndups + 1) != 0) {
			l->failed = 1;
			break;
		}
		dups[ndups].at = keys[i].index;
		dups[ndups].first = keys[first].index;
		ndups++;
	}
	if (ndups)
		qsort(dups, ndups, sizeof *dups, dupkey_cmp);
	size_t i;
	for (i = 0; i < ndups && !over_budget(l); i++) {
		const hg_ynode *k = map->pub.items[dups[i].at];
		const hg_ynode *o = map->pub.items[dups[i].first];
		hg_buf q;
		hg_buf_init(&q);
		hg_quote(&q, k->scalar);
		hg_diag *dg = hg_diag_add(l->d, HG_ERROR, k->pos, "data.duplicate-key",
					  "duplicate key %s in this mapping", q.data);
		hg_diag_note(dg, "%s was first given at line %u, column %u", q.data,
			     o->pos.line, o->pos.col);
		hg_buf_free(&q);
	}
	if (ndups)
		l->failed = 1;
	if (i < ndups)
		l->gave_up = 1;
	free(dups);
	free(keys);
}

/* A node is complete: a streamed item goes to item_fn (unless the loader
 * found errors in it: the helpers expect a sound tree), then away. */
static void complete(loader *l, ynode *y)
{
	if (!is_stream_item(l, y))
		return;
	if (l->d->nerrors == l->errors_at_item)
		l->item_fn(l->item_ctx, &y->pub, l->d);
	ynode *list = (ynode *)y->parent;
	list->pub.items[list->pub.n - 1] = NULL;	/* y, the last one added */
	l->nodes -= node_free(y);
	l->region_start = l->parser.offset;
	l->item_done = 1;
}

/* One event; returns 1 when loading is over (the end, or a fatal error). */
static int event(loader *l, const yaml_event_t *ev)
{
	yaml_mark_t m = ev->start_mark;
	const char *anchor = NULL, *tag = NULL;
	hg_ykind kind = HG_Y_SCALAR;
	int plain = 0;
	ynode *y;

	l->errors_at_event = l->d->nerrors;
	switch (ev->type) {
	case YAML_STREAM_START_EVENT:
	case YAML_DOCUMENT_END_EVENT:
	case YAML_NO_EVENT:
		return 0;
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_START_EVENT:
		if (l->documents++ > 0) {
			hg_diag *dg = hg_diag_add(l->d, HG_ERROR, mark_pos(l, m), "data.syntax",
						  "a second YAML document in one file");
			hg_diag_note(dg, "a data file holds exactly one document");
			l->failed = 1;
			return 1;
		}
		return 0;
	case YAML_ALIAS_EVENT:
		anchor_error(l, m, (const char *)ev->data.alias.anchor, 1);
		return 1;
	case YAML_SCALAR_EVENT:
		anchor = (const char *)ev->data.scalar.anchor;
		tag = (const char *)ev->data.scalar.tag;
		plain = ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
		break;
	case YAML_SEQUENCE_START_EVENT:
		anchor = (const char *)ev->data.sequence_start.anchor;
		tag = (const char *)ev->data.sequence_start.tag;
		kind = HG_Y_SEQ;
		break;
	case YAML_MAPPING_START_EVENT:
		anchor = (const char *)ev->data.mapping_start.anchor;
		tag = (const char *)ev->data.mapping_start.tag;
		kind = HG_Y_MAP;
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		y = l->stack[--l->depth];
		settle_items(l, y);
		if (y->pub.kind == HG_Y_MAP)
			check_mapping(l, y);
		complete(l, y);
		return 0;
	}

	if (anchor) {
		anchor_error(l, m, anchor, 0);
		return 1;
	}
	const char *value = kind == HG_Y_SCALAR ? (const char *)ev->data.scalar.value : "";
	check_tag(l, tag, kind, value, m, &plain);
	if (kind != HG_Y_SCALAR && l->depth == YAML_MAX_DEPTH) {
		limit_error(l, m, "lists and mappings nested", YAML_MAX_DEPTH, "deep");
		return 1;
	}
	y = add_node(l, kind, m);
	if (!y)
		return 1;
	if (kind != HG_Y_SCALAR) {
		l->stack[l->depth++] = y;
		return 0;
	}
	size_t len = ev->data.scalar.length;
	y->pub.scalar = doc_strndup(l, value, len);
	if (!y->pub.scalar) {
		l->failed = 1;
		return 1;
	}
	y->pub.plain = plain;
	if (strlen(value) != len) {
		hg_diag_add(l->d, HG_ERROR, y->pub.pos, "data.syntax",
			    "a NUL character in a scalar is not supported");
		l->failed = 1;
	}
	complete(l, y);
	return 0;
}

/* A new empty document, or NULL. */
static hg_ydoc *doc_new(const char *name)
{
	ydoc *doc = hg_try_calloc(1, sizeof *doc);
	if (!doc)
		return NULL;
	doc->pub.file = hg_try_strdup(name ? name : "-");
	if (!doc->pub.file) {
		free(doc);
		return NULL;
	}
	return &doc->pub;
}

static void too_big(hg_diags *d, const char *file)
{
	hg_pos pos = { file, 0, 0 };
	hg_diag_add(d, HG_ERROR, pos, "data.limit", "the file is larger than %u MiB",
		    YAML_MAX_BYTES / (1024 * 1024));
}

/* A stream's reader: stops (as at the end of the input) once the open
 * item, or the text since the last one, has run HG_YAML_ITEM_MAX_BYTES
 * past its start, so that nothing, not even one scalar, is held in memory
 * beyond that. */
static int read_stream(void *data, unsigned char *buf, size_t size, size_t *got)
{
	loader *l = data;
	if (l->bytes_read > l->region_start &&
	    l->bytes_read - l->region_start > HG_YAML_ITEM_MAX_BYTES) {
		l->item_capped = 1;
		*got = 0;
		return 1;
	}
	*got = fread(buf, 1, size, l->fp);
	l->bytes_read += *got;
	return *got > 0 || !ferror(l->fp);
}

/* Starts loading into doc from text, or from fp when text is NULL.  0, or
 * -1 (diagnosed, or out of memory; l and doc freed, either may be NULL). */
static int load_start(hg_ydoc *doc, const char *text, size_t len, FILE *fp, loader *l,
		      hg_diags *d)
{
	if (!doc || !l) {
		free(l);
		hg_ydoc_free(doc);
		return -1;	/* (the unit of work reports it) */
	}
	l->doc = doc;
	l->text = text;
	l->len = len;
	l->fp = fp;
	l->d = d;
	l->errors_at_start = d->nerrors;
	if (!l->item_fn && !(((ydoc *)doc)->arena = hg_arena_try_new())) {
		free(l);
		hg_ydoc_free(doc);
		return -1;
	}
	if (!yaml_parser_initialize(&l->parser)) {
		hg_pos pos = { doc->file, 0, 0 };
		hg_diag_add(d, HG_ERROR, pos, "data.syntax", "out of memory while parsing YAML");
		free(l);
		hg_ydoc_free(doc);
		return -1;
	}
	if (text)
		yaml_parser_set_input_string(&l->parser, (const unsigned char *)text, len);
	else
		yaml_parser_set_input(&l->parser, read_stream, l);
	return 0;
}

/* Reads events until the end, a fatal error, or (streaming) an item gone
 * to item_fn.  Returns 1 after an item, 0 at the end. */
static int load_run(loader *l)
{
	l->item_done = 0;
	while (!l->over && !l->item_done) {
		yaml_event_t ev;
		if (!yaml_parser_parse(&l->parser, &ev)) {
			if (l->item_capped)
				hg_diag_add(l->d, HG_ERROR, mark_pos(l, l->parser.mark), "data.limit",
					    "one item, or the text between two, is longer than %u bytes",
					    (unsigned)HG_YAML_ITEM_MAX_BYTES);
			else if (l->parser.error == YAML_MEMORY_ERROR && hg_alloc_reporting())
				hg_alloc_failure();	/* libyaml's own allocation */
			else if (l->fp && ferror(l->fp))
				hg_diag_add(l->d, HG_ERROR, (hg_pos){ l->doc->file, 0, 0 },
					    "data.io", "cannot read the file: %s", strerror(errno));
			else
				syntax_error(l);
			l->failed = 1;
			l->over = 1;
			break;
		}
		if (event(l, &ev))
			l->over = 1;
		yaml_event_delete(&ev);
		if (!l->over && over_budget(l)) {
			l->gave_up = 1;
			l->over = 1;
		}
	}
	return l->item_done;
}

/* Ends loading: the document, or NULL after errors (l is freed). */
static hg_ydoc *load_finish(loader *l)
{
	hg_ydoc *doc = l->doc;
	if (l->gave_up) {
		/* No line: where the loader stopped is not where the errors
		 * stopped being reported (a streamed item is checked whole). */
		l->failed = 1;
		hg_pos pos = { doc->file, 0, 0 };
		hg_diag_add(l->d, HG_ERROR, pos, "data.limit",
			    "%d errors: the rest of the file is not checked", YAML_MAX_ERRORS);
	}
	yaml_parser_delete(&l->parser);
	/* collections left open (a fatal error) hold malloc'd lists */
	for (size_t i = 0; i < l->depth; i++)
		settle_items(l, l->stack[i]);
	int failed = l->failed;
	free(l);
	if (failed) {
		hg_ydoc_free(doc);
		return NULL;
	}
	return doc;
}

static hg_ydoc *load(hg_ydoc *doc, const char *text, size_t len, loader *l, hg_diags *d)
{
	if (load_start(doc, text, len, NULL, l, d) != 0)
		return NULL;
	while (load_run(l))
		;
	return load_finish(l);
}

hg_ydoc *hg_yaml_load_mem(const char *name, const char *text, size_t len, hg_diags *d)
{
	if (len > YAML_MAX_BYTES) {
		too_big(d, name ? name : "-");
		return NULL;
	}
	loader *l = hg_try_calloc(1, sizeof *l);
	if (l)
		l->max_nodes = YAML_MAX_NODES;
	return load(doc_new(name), text, len, l, d);
}

hg_ydoc *hg_yaml_load_items(const char *name, const char *text, size_t len,
			    const char *key, hg_yaml_item_fn fn, void *ctx,
			    hg_diags *d)
{
	loader *l = hg_try_calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->max_nodes = HG_YAML_ITEM_MAX_NODES;
	l->items_key = key;
	l->item_fn = fn;
	l->item_ctx = ctx;
	return load(doc_new(name), text, len, l, d);
}

struct hg_yaml_items {
	loader *l;
};

hg_yaml_items *hg_yaml_items_open(const char *name, FILE *fp, const char *key,
				  hg_yaml_item_fn fn, void *ctx, hg_diags *d)
{
	loader *l = hg_try_calloc(1, sizeof *l);
	if (!l)
		return NULL;
	l->max_nodes = HG_YAML_ITEM_MAX_NODES;
	l->items_key = key;
	l->item_fn = fn;
	l->item_ctx = ctx;
	if (load_start(doc_new(name), NULL, 0, fp, l, d) != 0)
		return NULL;
	hg_yaml_items *it = hg_try_calloc(1, sizeof *it);
	if (!it) {
		yaml_parser_delete(&l->parser);
		hg_ydoc_free(l->doc);
		free(l);
		return NULL;
	}
	it->l = l;
	return it;
}

int hg_yaml_items_next(hg_yaml_items *it, hg_diags *d)
{
	loader *l = it->l;
	/* This call's diagnostics go to d; the error limit counts them all. */
	l->errors_before += l->d->nerrors - l->errors_at_start;
	l->d = d;
	l->errors_at_start = d->nerrors;
	return load_run(l);
}

hg_ydoc *hg_yaml_items_close(hg_yaml_items *it, hg_diags *d)
{
	loader *l = it->l;
	free(it);
	l->errors_before += l->d->nerrors - l->errors_at_start;
	l->d = d;
	l->errors_at_start = d->nerrors;
	while (load_run(l))
		;	/* (the caller stops early only at the end) */
	return load_finish(l);
}

hg_ydoc *hg_yaml_load_file(const char *path, hg_diags *d)
{
	hg_pos pos = { path, 0, 0 };
	FILE *f = fopen(path, "rb");
	if (!f) {
		hg_diag_add(d, HG_ERROR, pos, "data.io", "cannot open the file: %s",
			    strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fileno(f), &st) == 0 && S_ISDIR(st.st_mode)) {
		hg_diag_add(d, HG_ERROR, pos, "data.io", "cannot read the file: %s",
			    strerror(EISDIR));
		fclose(f);
		return NULL;
	}
	/* Read at most one byte past the limit, whatever the file claims. */
	hg_buf b;
	hg_buf_init(&b);
	char chunk[65536];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
		hg_buf_putn(&b, chunk, got);
		if (b.len > YAML_MAX_BYTES)
			break;
	}
	int err = ferror(f) ? errno : 0;
	fclose(f);
	if (hg_buf_failed(&b)) {	/* (the unit of work reports it) */
		hg_buf_free(&b);
		return NULL;
	}
	if (err) {
		hg_diag_add(d, HG_ERROR, pos, "data.io", "cannot read the file: %s",
			    strerror(err));
		hg_buf_free(&b);
		return NULL;
	}
	hg_ydoc *doc = hg_yaml_load_mem(path, b.data ? b.data : "", b.len, d);
	hg_buf_free(&b);
	return doc;
}

void hg_ydoc_free(hg_ydoc *doc)
{
	if (!doc)
		return;
	ydoc *y = (ydoc *)doc;
	if (y->arena)
		hg_arena_free(y->arena);
	else
		node_free((ynode *)doc->root);
	free(doc->file);
	free(y);
}
