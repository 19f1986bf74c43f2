/* record-reader.h - the one reader of the record model (internal).
 *
 * A record written as JSON or YAML (grammar/herald-record.schema.json)
 * has one shape; record-reader.c checks it and builds hg_game_record from
 * it, with every shape diagnostic written there once.  It pulls the values
 * of one game from a front end, one at a time, so that a front end need
 * hold no more of the input than one value:
 *   convert-json.c  jansson for the scalars, the punctuation between them
 *                   read as it streams (JSON Lines a line at a time, a
 *                   document's games array game by game);
 *   convert-yaml.c  the tree of one game at a time, as libyaml's event
 *                   parser hands it to yaml-tree.c's loader.
 * The front ends keep what is theirs: syntax, duplicate keys, the
 * document around the games, and their limits on size.
 */
#ifndef HERALD_RECORD_READER_H
#define HERALD_RECORD_READER_H

#include "internal.h"

/* The version of the shape, the "herald" member the writers put and the
 * readers accept. */
#define HG_RECORD_FORMAT_VERSION 1

/* Errors in one call of a front end before the rest goes unchecked. */
#define HG_RECORD_MAX_ERRORS 100

/* What a front end's `next` returns. */
typedef enum hg_rvalue_kind {
	HG_RV_SCALAR,
	HG_RV_LIST,		/* opened: its items follow, then HG_RV_END */
	HG_RV_MAP,		/* opened: its members follow, then HG_RV_END */
	HG_RV_END,		/* the open list or mapping is closed */
	HG_RV_STOP		/* the input cannot be read on (said) */
} hg_rvalue_kind;

/* A value as a front end gives it.  The texts last until the next call. */
typedef struct hg_rvalue {
	hg_rvalue_kind kind;
	hg_pos pos;		/* where the value begins */
	const char *key;	/* a member of a mapping: its key (else NULL) */
	hg_pos key_pos;
	const char *text;	/* a scalar's text */
	int plain;		/* a scalar written without quotes (YAML plain;
				   a JSON number, true, false or null): the
				   YAML 1.2 core schema says what it is */
	int is_string;		/* the scalar may be read as a string */
} hg_rvalue;

typedef struct hg_record_source hg_record_source;
struct hg_record_source {
	/* The next item of the open list, or member of the open mapping. */
	hg_rvalue_kind (*next)(hg_record_source *src, hg_rvalue *v);
	/* Closes, unread, the list or mapping `next` has just opened; 0, or
	 * -1 when the input cannot be read on (said). */
	int (*skip)(hg_record_source *src);
	/* How the format names a mapping and a list ("an object", "an
	 * array" in JSON) in "expected ..., found ..." */
	const char *a_map, *a_list;
};

typedef struct hg_record_reader {
	const char *name;	/* the file, for a game's record */
	const char *code;	/* of every diagnostic: hgn.json, hgn.yaml */
	hg_diags *d;
	size_t errors_at_start;	/* d->nerrors when the front end's call began */
	int gave_up;		/* HG_RECORD_MAX_ERRORS reached: unchecked */
	int stopped;		/* the source said HG_RV_STOP */
	hg_buf path;		/* of the value being read: games[0].moves[3] */
	/* the game being read */
	hg_game_record *g;
	size_t actions, elements;
	int tags_over;
	/* texts of the node being read, one buffer for each depth of
	 * variation (a node's variation is read before its other members
	 * are looked at) */
	hg_buf scratch[HG_MAX_NESTING + 2];
} hg_record_reader;

void hg_record_reader_init(hg_record_reader *r, const char *name, const char *code);
void hg_record_reader_free(hg_record_reader *r);

/* Reads the game whose value (`v`, opened when a list or mapping) the
 * source has just given, its path in r->path: the record, with what is
 * wrong with it in r->d; NULL when it is no mapping (said), or when the
 * source stopped.  After gave_up, the rest of the game is left unread. */
hg_game_record *hg_record_read_game(hg_record_reader *r, hg_record_source *src,
				    const hg_rvalue *v);

/* Path helpers, for the front ends' own messages: a mark to pop to. */
size_t hg_record_path_key(hg_record_reader *r, const char *key);
size_t hg_record_path_index(hg_record_reader *r, size_t i);
void hg_record_path_pop(hg_record_reader *r, size_t mark);

/* "expected <expected> for <the path>, found <v>" (v a scalar, or a list
 * or mapping just opened). */
void hg_record_mismatch(hg_record_reader *r, const hg_record_source *src,
			const char *expected, const hg_rvalue *v);

#endif
