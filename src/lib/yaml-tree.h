/* yaml-tree.h - the YAML tree loader's streaming form (internal).
 *
 * hg_yaml_load_mem() holds a whole document, within limits meant for game
 * data (64 MiB, 1 000 000 nodes).  A file of HGN records as YAML may be far
 * larger, one game after another, so convert-yaml.c loads it through
 * hg_yaml_load_items(), which hands over each item of one top-level list as
 * soon as that item is complete and frees it afterwards: memory holds one
 * item (one game) at a time, and the node limit applies to one item.
 */
#ifndef HERALD_YAML_TREE_H
#define HERALD_YAML_TREE_H

#include "internal.h"

/* Every node is allocated by the loader inside a `ynode`, which also
 * records the node's parent, so that a helper of yaml-check.c can say
 * which key a bad value belongs to.  */
/* A node's place in its parent's list is not kept: messages, which need
 * it, find it (index_in); a node costs that much less. */
typedef struct ynode {
	hg_ynode pub;			/* first: what callers see */
	size_t cap;			/* allocated slots of pub.items */
	const struct ynode *parent;	/* NULL for the root */
	int whole;			/* of a document loaded whole (a data
					   file), not streamed (records) */
} ynode;

/* Core schema resolution of a plain scalar (YAML 1.2, section 10.3.2):
 * is it a null, an integer, a float; a boolean (1, 0, or -1 when not)? */
int hg_ycore_null(const char *s);
int hg_ycore_int(const char *s);
int hg_ycore_float(const char *s);
int hg_ycore_bool(const char *s);

/* "a scalar", "a list" or "a mapping", for messages. */
const char *hg_ykind_name(hg_ykind k);

/* Nodes one item may hold: a game at the HGN limits (HG_MAX_ACTIONS
 * actions of five nodes each, with its move numbers and comments). */
#define HG_YAML_ITEM_MAX_NODES (8 * HG_MAX_ACTIONS)

/* Called with each complete item of the list; `item` and every node under
 * it are freed when the call returns (its parent and the document stay,
 * the list's slot left NULL).  Diagnostics go to `d`, the loader's list,
 * and count towards its error limit. */
typedef void (*hg_yaml_item_fn)(void *ctx, const hg_ynode *item, hg_diags *d);

/* Loads like hg_yaml_load_mem(), with no limit on the text's size, except
 * that the items of the list that is the value of `key` in the top-level
 * mapping go to `fn` one by one.  The document returned (NULL on any
 * error, as for hg_yaml_load_mem) keeps the rest. */
hg_ydoc *hg_yaml_load_items(const char *name, const char *text, size_t len,
			    const char *key, hg_yaml_item_fn fn, void *ctx,
			    hg_diags *d);

/* The same, pulled from a stream item by item: each call to next reads
 * until fn has had one item (1) or to the end or a fatal error (0), with
 * its diagnostics in that call's d.  An item may take at most
 * HG_YAML_ITEM_MAX_BYTES of text (data.limit).  close reads what is left
 * and returns the rest of the document, as hg_yaml_load_items.  fp is not
 * closed.  open returns NULL after a diagnostic. */
#define HG_YAML_ITEM_MAX_BYTES ((size_t)HG_MAX_GAME)
typedef struct hg_yaml_items hg_yaml_items;
hg_yaml_items *hg_yaml_items_open(const char *name, FILE *fp, const char *key,
				  hg_yaml_item_fn fn, void *ctx, hg_diags *d);
int hg_yaml_items_next(hg_yaml_items *it, hg_diags *d);
hg_ydoc *hg_yaml_items_close(hg_yaml_items *it, hg_diags *d);

#endif
