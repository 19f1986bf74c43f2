/*
 * herald-engine.h - the engine-author interface of libherald.
 *
 * What a rules engine (src/games/<game>/) and a tool that loads game data
 * need beyond the end-user interface of herald.h: the YAML tree helpers
 * (hg_y*), name tables (hg_names_*), the provenance of data values
 * (hg_prov*), the data-loading context (hg_load_ctx, hg_data_*) and the
 * structure every engine fills, hg_game_class.  A program that only
 * parses, checks, replays, formats or converts records includes herald.h
 * alone.  Everything here is exported like herald.h's (HG_EXPORT).
 */
#ifndef HERALD_ENGINE_H
#define HERALD_ENGINE_H

#include "herald.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A lookup table from folded names (ids and aliases) to small integers. */
typedef struct hg_names hg_names;
/* Returns a new empty table; hg_names_free frees it.  Inside a public
 * call that reports allocation failure (HG_ENOMEM) it may be NULL, and
 * hg_names_add may leave a name out: a NULL table takes nothing and finds
 * nothing, and the call's HG_ENOMEM drops what was built with it.
 * Elsewhere a failure aborts. */
HG_EXPORT hg_names *hg_names_new(void);
HG_EXPORT void hg_names_free(hg_names *t);
/* Returns 0, or -1 when the folded name is already bound to another value
 * (*clash gets that value). */
HG_EXPORT int hg_names_add(hg_names *t, const char *name, int value, int *clash);
/* Returns the value, or -1 when the name is unknown. */
HG_EXPORT int hg_names_find(const hg_names *t, const char *name);
/* Up to max values whose folded name is closest to `name` (for "did you
 * mean" notes); returns how many were written. */
HG_EXPORT size_t hg_names_suggest(const hg_names *t, const char *name, int *values, size_t max);

/* ------------------------------------------------------------------------
 * YAML documents, loaded with libyaml into a tree whose every node knows
 * its line and column.  Aliases and anchors are rejected (no expansion
 * blow-up), as are tags other than the core schema's.  The hg_y* helpers
 * check a node and report at its position:
 *   data.syntax        the YAML itself is malformed
 *   data.alias         an anchor or alias
 *   data.unknown-key   a key the format does not define
 *   data.missing-key   a required key is absent
 *   data.duplicate-key a key given twice in one mapping
 *   data.type          a node of the wrong kind (scalar, list, mapping)
 *   data.range         a value out of range or not one of the allowed words
 *   data.reference     a dangling or inconsistent reference (game loaders)
 *   data.duplicate-id  an id or alias defined twice (game loaders)
 *   data.limit         the document is too large, too deep, or has too many
 *                      errors (limits in herald-notation(5), LIMITS)
 *   data.io            the file cannot be opened or read
 * `what` in hg_ycheck_kind and hg_ycheck_keys is a phrase naming the node
 * in messages ("the card 'c01'"); NULL names it by its key.  The helpers
 * take only nodes of a document this loader built (they name the parent
 * key), and hg_ystr refuses a plain null (empty, `~`, `null`).
 * ------------------------------------------------------------------------ */
typedef enum hg_ykind { HG_Y_SCALAR, HG_Y_SEQ, HG_Y_MAP } hg_ykind;

typedef struct hg_ynode hg_ynode;
struct hg_ynode {
	hg_pos pos;
	char *scalar;		/* HG_Y_SCALAR: the text */
	hg_ynode **items;	/* HG_Y_SEQ: n items; HG_Y_MAP: n keys at even
				   indexes, each followed by its value */
	size_t n;
	hg_ykind kind;
	int plain;		/* HG_Y_SCALAR: 1 when unquoted */
};

typedef struct hg_ydoc {
	char *file;
	hg_ynode *root;		/* NULL for an empty document */
} hg_ydoc;

/* Return the document (free with hg_ydoc_free), or NULL (with
 * diagnostics) on any error. */
HG_EXPORT hg_ydoc *hg_yaml_load_file(const char *path, hg_diags *d);
HG_EXPORT hg_ydoc *hg_yaml_load_mem(const char *name, const char *text, size_t len,
			  hg_diags *d);
HG_EXPORT void hg_ydoc_free(hg_ydoc *doc);

/* A mapping's number of pairs; the key and the value of pair i; the value
 * of `key`, or NULL when it has none. */
HG_EXPORT size_t hg_ymap_len(const hg_ynode *map);
HG_EXPORT const hg_ynode *hg_ymap_key(const hg_ynode *map, size_t i);
HG_EXPORT const hg_ynode *hg_ymap_value(const hg_ynode *map, size_t i);
HG_EXPORT const hg_ynode *hg_ymap_get(const hg_ynode *map, const char *key);
/* Each helper returns 0 when the node is good, -1 after a diagnostic. */
HG_EXPORT int hg_ycheck_kind(const hg_ynode *n, hg_ykind kind, const char *what, hg_diags *d);
/* `keys` is a NULL-terminated list; a leading '!' marks a required key. */
HG_EXPORT int hg_ycheck_keys(const hg_ynode *map, const char *const *keys, const char *what,
		   hg_diags *d);
/* hg_ystr, hg_yname, hg_yint, hg_ybool: 0 with the scalar's value in *out,
 * or -1 after a diagnostic (not a scalar of that type, out of range). */
HG_EXPORT int hg_ystr(const hg_ynode *n, const char **out, hg_diags *d);
/* An id, name or alias: a string of at most HG_MAX_DATA_NAME bytes (a
 * longer one is a data.limit diagnostic). */
#define HG_MAX_DATA_NAME 64
HG_EXPORT int hg_yname(const hg_ynode *n, const char **out, hg_diags *d);
HG_EXPORT int hg_yint(const hg_ynode *n, long min, long max, long *out, hg_diags *d);
HG_EXPORT int hg_ybool(const hg_ynode *n, int *out, hg_diags *d);
/* The index of the scalar among the NULL-terminated words, matched with
 * hg_name_eq; otherwise a data.range diagnostic listing the words. */
HG_EXPORT int hg_yword(const hg_ynode *n, const char *const *words, int *out, hg_diags *d);

/* ------------------------------------------------------------------------
 * Provenance of game data (provenance.c; herald-data(5)).  Every value of
 * a data file is published (a publisher's component list names it), read
 * from the rule text, or reconstructed by herald; a value its file says
 * nothing about is unstated.  A loaded data document holds, in any
 * mapping, the keys `reconstructed`, `provenance` and `source`, which
 * hg_ycheck_keys lets pass; hg_provs_collect reads them into a table of
 * every value, named by its path ("areas.homs.adjacent.latakia").
 * ------------------------------------------------------------------------ */
typedef enum hg_prov_kind {
	HG_PROV_UNSTATED,
	HG_PROV_PUBLISHED,
	HG_PROV_RULE_TEXT,
	HG_PROV_RECONSTRUCTED
} hg_prov_kind;
#define HG_PROV_KINDS 4
/* "unstated", "published", "rule-text", "reconstructed" */
HG_EXPORT const char *hg_prov_kind_name(hg_prov_kind k);

typedef struct hg_prov {
	const char *file;	/* the data file, as its document names it
				   (one of hg_provs.files) */
	char *datum;		/* the value's path in the file */
	unsigned line, col;
	hg_prov_kind kind;
	char *source;		/* the publisher's page or the rule text's
				   section it comes from, or NULL */
	int leaf;		/* a scalar: one value, as counted */
} hg_prov;

typedef struct hg_provs {
	hg_prov *v;
	size_t n, cap;
	char **files;		/* the files collected, each once */
	size_t nfiles;
} hg_provs;

HG_EXPORT void hg_provs_init(hg_provs *p);
HG_EXPORT void hg_provs_free(hg_provs *p);
/* Adds the provenance of every value of `doc`.  0, or -1 after
 * diagnostics (data.type, data.range, data.reference) on a malformed
 * `provenance`, `source` or `reconstructed`. */
HG_EXPORT int hg_provs_collect(hg_provs *p, const hg_ydoc *doc, hg_diags *d);
/* The entry of the value `datum` of `file` (NULL: of any file), or NULL. */
HG_EXPORT const hg_prov *hg_provs_find(const hg_provs *p, const char *file, const char *datum);
/* How many values (scalars) are of each kind, added into counts. */
HG_EXPORT void hg_provs_count(const hg_provs *p, size_t counts[HG_PROV_KINDS]);

/* Says that the verdict of dg rests on the datum `datum` of `file` (NULL:
 * any file) when `p` marks it reconstructed: a note naming the datum and
 * its file, and an entry of dg->rests_on.  Nothing when it is published,
 * read from the rule text, unstated, or not found. */
HG_EXPORT void hg_diag_rests_on(hg_diag *dg, const hg_provs *p, const char *file, const char *datum);
/* Adds one entry to dg->rests_on, without a note (a report read back). */
HG_EXPORT void hg_diag_rests_on_add(hg_diag *dg, const char *datum, const char *file, unsigned line);
/* Copies src's rests_on entries to dst (a diagnostic copied elsewhere;
 * the notes are copied by the caller). */
HG_EXPORT void hg_diag_copy_rests_on(hg_diag *dst, const hg_diag *src);

/* ------------------------------------------------------------------------
 * Rules engines.  Each game fills one hg_game_class (herald.h declares the
 * type, opaque to end users, and the registry hg_games/hg_game_find).
 * ------------------------------------------------------------------------ */
typedef struct hg_action_list {
	hg_action **v;
	size_t n, cap;
} hg_action_list;

/* 0; or, short of memory, HG_ENOMEM with the list as it was: the caller
 * frees `a`. */
HG_EXPORT int hg_action_list_push(hg_action_list *l, hg_action *a);

/* ------------------------------------------------------------------------
 * Allocation failure in an engine (herald.h, HG_ENOMEM; herald_engine(3),
 * ALLOCATION FAILURE).  The library's calls that report HG_ENOMEM run an
 * engine's callbacks inside a unit of work; a callback whose bit it sets
 * in reports_enomem (below) allocates with these, which return NULL short
 * of memory and record the failure for the call that runs it, which then
 * ends in HG_ENOMEM whatever the callback returns.  Where no such call
 * runs them (a callback of an engine that does not report, a program's
 * own code) they abort as hg_xmalloc does: there is no one to tell.
 * ------------------------------------------------------------------------ */
HG_EXPORT void *hg_try_malloc(size_t n);
HG_EXPORT void *hg_try_calloc(size_t n, size_t size);
HG_EXPORT void *hg_try_realloc(void *p, size_t n);
HG_EXPORT char *hg_try_strndup(const char *s, size_t n);
HG_EXPORT char *hg_try_strdup(const char *s);
/* Records a failure of the engine's own (a library that allocates on its
 * own said it had no memory) for the call that runs the callback. */
HG_EXPORT void hg_alloc_failure(void);
/* 1 when an allocation has failed in the call under way, which will end in
 * HG_ENOMEM: what the callback builds now is dropped, and it may stop
 * early (a generator of legal actions); else 0. */
HG_EXPORT int hg_alloc_lost(void);

/* What a game loader may consult: where data lives, and the record (may be
 * NULL, e.g. for `herald games`) with its directory, so that tags may name
 * a user's own data file relative to the record. */
typedef struct hg_load_ctx {
	const hg_datapath *path;
	const hg_game_record *rec;
	const char *record_dir;
} hg_load_ctx;

/* A data file that a record names (with a tag such as DeckFile), or that
 * such a file names in turn (herald-check(1), HOSTILE INPUT).  `name` is
 * taken relative to `base_dir` (an absolute name as it is), then, when
 * `search` is not NULL, as search/name in each directory of the data
 * path.  The first of these that resolves (links followed) to a file
 * inside the record's directory (or, for a file a data file names, that
 * file's directory), a directory of the data path or an allowed directory
 * (hg_datapath_allow) is the file; it is opened without
 * following a link out of that directory and must be a regular file of at
 * most HG_DATA_FILE_MAX_BYTES.  Not found, outside, or a dangling link:
 * one message, which does not tell whether a file outside exists. */
#define HG_DATA_FILE_MAX_BYTES (16u * 1024 * 1024)

typedef struct hg_data_name {
	const char *name;	/* as written */
	const char *named_by;	/* for messages: N_("the DeckFile tag"),
				   translated where shown */
	hg_pos pos;		/* where it is named */
	const char *base_dir;	/* NULL: the record's directory */
	const char *search;	/* a subdirectory of the data path ("": the
				   directories themselves), or NULL */
} hg_data_name;

/* What a data file must look like before a diagnostic may quote it: a
 * YAML mapping whose keys are among `keys` (a leading '!' marks a
 * required key).  Until then every fault is one data.file diagnostic
 * that says only that the file is not `what`. */
typedef struct hg_data_kind {
	const char *what;		/* N_("a deck file"), translated where shown */
	const char *const *keys;	/* NULL-terminated */
} hg_data_kind;

/* The document, or NULL after diagnostics. */
HG_EXPORT hg_ydoc *hg_data_load(const hg_load_ctx *ctx, const hg_data_name *n,
		      const hg_data_kind *kind, hg_diags *d);

/* Which file `n` names, so that records naming the same file share what
 * was loaded from it: 0 with its identity, or -1 when it names none that
 * may be read (hg_data_load then says why). */
typedef struct hg_data_id {
	uint64_t dev, ino;
} hg_data_id;
HG_EXPORT int hg_data_identify(const hg_load_ctx *ctx, const hg_data_name *n, hg_data_id *id);

/* A tag that names data files, as a game class declares it. */
typedef struct hg_data_tag {
	const char *name;	/* "DeckFile" */
	const char *search;	/* as hg_data_name.search */
	int list;		/* the value is a ';'-separated list of files */
} hg_data_tag;

/* The file names a data tag's value holds (one, or each of a list, blanks
 * around each trimmed, empty ones left out); returns how many, *names
 * malloc'd (free with hg_strv_free). */
HG_EXPORT size_t hg_data_tag_files(const hg_data_tag *t, const char *value, char ***names);

struct hg_game_class {
	const char *id;			/* "kingdoms-of-crusaders" */
	const char *title;		/* "The Kingdoms of Crusaders" */
	const char *const *aliases;	/* NULL-terminated, may be NULL */
	const char *const *variants;	/* NULL-terminated "name: description" */
	const char *const *data_files;	/* NULL-terminated default files */
	/* The tags with which a record names its own data files ({ NULL }
	 * ends the list); no other tag loads data, whatever its name. */
	const hg_data_tag *data_tags;
	/* How many seats a game may have, by its rules (and the set-ups of
	 * its default data): `herald games` shows the range, and the tests
	 * and fuzz/run.sh take each game's from there. */
	unsigned min_seats, max_seats;

	/* Loads (and validates) the data the record needs.  A record selects
	 * its own data files only through the class's data_tags, read with
	 * hg_data_load(): the session shares one load among every record
	 * naming the same such files, and calls load() again only for a
	 * different set.  `key` may receive a
	 * human-readable description of what was loaded (informational). */
	hg_gdata *(*load)(const hg_load_ctx *ctx, hg_buf *key, hg_diags *d);
	void (*unload)(hg_gdata *data);

	/* Set-up from the tags.  NULL after diagnostics when the tags are
	 * unusable. */
	hg_state *(*setup)(const hg_gdata *data, const hg_game_record *rec,
			   hg_diags *d);
	hg_state *(*clone)(const hg_state *s);
	void (*free_state)(hg_state *s);

	/* Parses an action.  May consult only the set-up (seats, data), never
	 * the position, so that `fmt` can canonicalise without replaying.
	 * NULL after a diagnostic (code <game>.syntax or more specific). */
	hg_action *(*parse)(const hg_state *s, const hg_action_text *t,
			    hg_diags *d);
	/* Canonical spelling: seat name into `seat`, body into `body`. */
	void (*format)(const hg_state *s, const hg_action *a, hg_buf *seat,
		       hg_buf *body);
	/* Checks and applies.  0: legal, applied.  -1: illegal; a diagnostic
	 * names the rule and its section ("... (rule 4.1)"), with notes on what
	 * was legal where that helps.  After -1 the state is spoiled: the
	 * engine may have changed part of it before it found the fault, and
	 * the caller may only free it.  (Checking applies in place, without a
	 * copy per action; a caller that goes on from the position before an
	 * illegal action uses hg_apply_keep.)  Hidden information that
	 * prevents a check is an HG_UNVERIFIED diagnostic and does not make
	 * the action illegal. */
	int (*apply)(hg_state *s, const hg_action *a, hg_diags *d);
	void (*free_action)(hg_action *a);

	/* The legal actions now (possibly a representative sample where the
	 * choices are combinatorial; documented per game). */
	void (*legal)(const hg_state *s, hg_action_list *out);
	/* The canonical result when the game is over, else NULL. */
	const char *(*result)(const hg_state *s);
	/* The number a move number written now must show. */
	unsigned (*turn)(const hg_state *s);
	/* Whose turn it is, as a canonical seat name (NULL when over). */
	const char *(*to_move)(const hg_state *s);
	/* Plain-text picture of the position. */
	void (*render)(const hg_state *s, hg_buf *out);

	/* For `herald gen`: fill the tags of a new random game.  `players` 0
	 * means the game's default; `variant` NULL the default variant. */
	int (*gen_tags)(const hg_gdata *data, hg_prng *r, unsigned players,
			const char *variant, hg_game_record *rec, hg_diags *d);

	/* For `herald deck check`: checks a deck file against the game's
	 * deck-construction rules, with the game's bundled card pool, or with
	 * `card_files` (read in order) instead when ncard_files > 0.  0: legal;
	 * -1 after diagnostics.  NULL for a game without deck construction. */
	int (*check_deck)(const hg_datapath *path, const char *const *card_files,
			  size_t ncard_files, const char *deck_file, hg_diags *d);

	/* Remote play (herald new, herald move; each game's master.c).  The
	 * seats that move and may resign are those seat_name() names (below). */
	/* How much of an action the seat decides: the length of the prefix of
	 * its canonical body that is the seat's choice; the rest is chance
	 * that herald computes (dice, cards drawn or taken at random, the
	 * outcome they give).  0: the whole action is herald's (a deal, a
	 * draw, a move of a side no player holds); strlen(body): none of it.
	 * NULL: every action is wholly its seat's. */
	size_t (*chance_split)(const hg_state *s, const char *seat, const char *body);
	/* The result when seat i resigns or forfeits (herald-notation(5),
	 * ENDINGS).  NULL: the other seats share it, their names joined by
	 * ", " in seat order. */
	void (*resign_result)(const hg_state *s, unsigned seat, hg_buf *out);
	/* The seat's canonical body with its chance written out as the seed
	 * gives it in position s, into out; nothing written when the game
	 * names no chance there (herald then matches the action against the
	 * legal ones, by chance_split).  NULL: none. */
	void (*chance_fill)(const hg_state *s, const char *seat, const char *body, hg_buf *out);
	/* Actions held pending (herald-move(1), PENDING ACTIONS): an action
	 * within which other seats decide (Crusader Kingdoms' attack) is
	 * taken step by step.  NULL: no game action is held pending.
	 * pending_open: the seat's action `body`; 1 when other seats answer
	 * within it (p filled: the seat, what is declared, parts[0] and the
	 * seats awaited), 0 when it is whole (played at once), -1 after
	 * diagnostics.  pending_answer: `seat`'s step `text` (validated, added
	 * to p as its part, the seat no longer awaited), 0 or -1.
	 * pending_finish: the whole action, its chance written from the seed,
	 * into body; 0 or -1.  pending_steps: the steps `seat` may answer
	 * with, one a line, into out (from its view: no card it may not see). */
	int (*pending_open)(const hg_state *s, const char *seat, const char *body,
			    struct hg_pending *p, hg_diags *d);
	int (*pending_answer)(const hg_state *s, struct hg_pending *p, const char *seat,
			      const char *text, hg_diags *d);
	int (*pending_finish)(const hg_state *s, const struct hg_pending *p, hg_buf *body,
			      hg_diags *d);
	void (*pending_steps)(const hg_state *s, const struct hg_pending *p, const char *seat,
			      hg_buf *out);
	/* Seat views (`herald view`, `herald next --as`; src/games/<game>/
	 * view.c).  What each seat may see is each game's manual page's
	 * section SEAT VIEWS.  A seat here is a seat a player holds, numbered
	 * from 0 in the order of the set-up; a side no player controls has
	 * no view. */
	/* The seat `name` names (its canonical name, an alias, the player's
	 * name, matched as the game's actions match seats), or -1 when it
	 * names no seat a player holds. */
	int (*seat_find)(const hg_state *s, const char *name);
	/* The canonical name of a seat (as `format` writes it), or NULL when
	 * no player holds a seat of that number. */
	const char *(*seat_name)(const hg_state *s, unsigned seat);
	/* The action `a`, which took the position `before` to `after`, as
	 * `seat` may see it, in canonical spelling: the acting seat's name
	 * into `seat_out` and the body into `body`, with every card the seat
	 * may not see written `?` as the game's notation allows, and every
	 * card it may see named (also one the master record left to its
	 * Seed).  Whatever it writes must replay, without the Seed, as legal
	 * or unverified wherever the master record is legal; and an action
	 * already as the seat sees it is written unchanged (a view of a view
	 * is the same view). */
	void (*view_action)(const hg_state *before, const hg_state *after,
			    const hg_action *a, unsigned seat, hg_buf *seat_out,
			    hg_buf *body);
	/* 1 when the legal action `a` (from legal()) names what chance
	 * decides (a card drawn, a die rolled) rather than leaving it '?':
	 * no seat chooses that, and `herald next --as` lists only the seat's
	 * choices. */
	int (*names_chance)(const hg_state *s, const hg_action *a);

	/* For `herald replay --format=json|html`: the position as a JSON
	 * object (a new jansson reference), with what render() shows and no
	 * more (a hidden card stays hidden).  Its shape is documented per game
	 * by grammar/herald-replay.schema.json. */
	struct json_t *(*position_json)(const hg_state *s);
	/* Position facts (`herald select --position`; src/games/<game>/
	 * facts.c; each game's facts are listed in herald-select(1), POSITION
	 * FACTS).  `facts`: the facts the game knows, NULL-terminated, each
	 * "NAME ARG: what it is" (ARG empty for a fact of the whole position);
	 * NULL: none.  fact() writes the value of fact `name` about `arg` in
	 * position s into out: a word (a seat, a faction, "none") or a decimal
	 * number.  0; -1 when the game has no such fact or arg names nothing
	 * it applies to. */
	const char *const *facts;
	int (*fact)(const hg_state *s, const char *name, const char *arg, hg_buf *out);

	/* Which callbacks report allocation failure (doc/design-apply.md,
	 * section 3): HG_REPORTS_* or'ed, one bit per callback.  0, the
	 * default, is the safe choice: the callbacks allocate as they always
	 * have, aborting when memory runs out, and the core runs them paused
	 * inside the calls that report it (hg_check_game and the others whose
	 * manual page gives HG_ENOMEM).  A callback whose bit is set runs in
	 * such a call with hg_try_* style allocation (NULL short of memory):
	 * it frees what it built and returns the failure its contract gives,
	 * and the core does the rest: whatever it returns, when an allocation
	 * failed while it ran (a diagnostic dropped, a buffer that could not
	 * grow), setup, clone and parse end in NULL (what they returned is
	 * freed), apply in HG_ENOMEM (the state spoiled, as after -1), legal
	 * in an empty list, the callbacks that write (render, format,
	 * chance_fill, resign_result, pending_finish, pending_steps,
	 * view_action) in output cut short, and gen_tags, chance_split and
	 * pending_open/_answer in a failure whose record or pending action
	 * the caller drops; the call then ends in HG_ENOMEM. */
	unsigned reports_enomem;
};

#define HG_REPORTS_SETUP (1u << 0)
#define HG_REPORTS_CLONE (1u << 1)
#define HG_REPORTS_PARSE (1u << 2)
#define HG_REPORTS_APPLY (1u << 3)
#define HG_REPORTS_LEGAL (1u << 4)
#define HG_REPORTS_RENDER (1u << 5)
/* The callbacks that write: each one's output cut short, or its failure
 * (HG_ENOMEM for the game master's), when an allocation failed while it
 * ran (herald_engine(3), ALLOCATION FAILURE). */
#define HG_REPORTS_FORMAT (1u << 6)
#define HG_REPORTS_GEN_TAGS (1u << 7)
#define HG_REPORTS_CHANCE_SPLIT (1u << 8)
#define HG_REPORTS_CHANCE_FILL (1u << 9)
#define HG_REPORTS_RESIGN_RESULT (1u << 10)
#define HG_REPORTS_PENDING_OPEN (1u << 11)
#define HG_REPORTS_PENDING_ANSWER (1u << 12)
#define HG_REPORTS_PENDING_FINISH (1u << 13)
#define HG_REPORTS_PENDING_STEPS (1u << 14)
#define HG_REPORTS_VIEW_ACTION (1u << 15)
#define HG_REPORTS_ALL (HG_REPORTS_SETUP | HG_REPORTS_CLONE | HG_REPORTS_PARSE | \
			HG_REPORTS_APPLY | HG_REPORTS_LEGAL | HG_REPORTS_RENDER | \
			HG_REPORTS_FORMAT | HG_REPORTS_GEN_TAGS | HG_REPORTS_CHANCE_SPLIT | \
			HG_REPORTS_CHANCE_FILL | HG_REPORTS_RESIGN_RESULT | \
			HG_REPORTS_PENDING_OPEN | HG_REPORTS_PENDING_ANSWER | \
			HG_REPORTS_PENDING_FINISH | HG_REPORTS_PENDING_STEPS | \
			HG_REPORTS_VIEW_ACTION)

/* Applies `a` to *st, keeping the position when the action is illegal:
 * on 0, *st is the position after it (the old state is freed); on -1, *st
 * is untouched.  Costs one clone of the state per call.  HG_ENOMEM (*st
 * untouched, hg.out-of-memory in place of the call's diagnostics) when
 * memory ran out: in the engine's clone or apply where it reports
 * allocation failure (reports_enomem), or in the diagnostics. */
HG_EXPORT int hg_apply_keep(const hg_game_class *cls, hg_state **st, const hg_action *a,
		  hg_diags *d);
/* An engine's callbacks as a program calls them (herald next, replay and
 * select, the e-mail judge), each one call that reports allocation
 * failure (a callback called directly, outside such a call, aborts where
 * it allocates with hg_try_*).  hg_state_setup and hg_action_parse: the
 * state or action, or NULL after diagnostics or short of memory (then
 * hg.out-of-memory in place of the call's diagnostics).  hg_legal_actions
 * and hg_render_position: 0, or HG_ENOMEM with the list empty (nothing for
 * the caller to free) or `out` marked failed (hg_buf_failed) holding what
 * it held before. */
HG_EXPORT hg_state *hg_state_setup(const hg_game_class *cls, const hg_gdata *data,
				   const hg_game_record *rec, hg_diags *d);
HG_EXPORT hg_action *hg_action_parse(const hg_game_class *cls, const hg_state *st,
				     const hg_action_text *t, hg_diags *d);
HG_EXPORT int hg_legal_actions(const hg_game_class *cls, const hg_state *st,
			       hg_action_list *out);
HG_EXPORT int hg_render_position(const hg_game_class *cls, const hg_state *st, hg_buf *out);

#ifdef __cplusplus
}
#endif
#endif
