/*
 * herald.h - the public interface of libherald.
 *
 * libherald lexes and parses HGN (Herald Game Notation) records into one
 * game-independent model, writes them back canonically, converts them to and
 * from JSON and YAML, loads the games' YAML data, and replays records through
 * the rules engines, which all implement one interface (hg_game_class).
 *
 * The library knows nothing of the command line: it never prints, never
 * exits, and reports every problem as a diagnostic (hg_diag).
 */
#ifndef HERALD_H
#define HERALD_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define HG_PRINTF(f, a) __attribute__((format(printf, f, a)))
#else
#define HG_PRINTF(f, a)
#endif

const char *hg_version(void);

#if defined(__GNUC__)
#define HG_FORMAT_ARG(a) __attribute__((format_arg(a)))
#else
#define HG_FORMAT_ARG(a)
#endif
/* msgid in the user's language (LC_MESSAGES, LANGUAGE; herald's own text
 * domain), or msgid itself when there is no translation or herald was
 * built with --disable-nls.  Diagnostics are translated by hg_diag_add,
 * hg_diag_vadd and hg_diag_note themselves; the caller must have called
 * setlocale(LC_ALL, ""). */
const char *hg_gettext(const char *msgid) HG_FORMAT_ARG(1);
/* The same for a message with a number: msgid (singular) or plural as the
 * language's plural rule chooses for n. */
const char *hg_ngettext(const char *msgid, const char *plural, unsigned long n)
	HG_FORMAT_ARG(1) HG_FORMAT_ARG(2);

/* ------------------------------------------------------------------------
 * Positions: lines and columns count from 1; columns count characters
 * (Unicode code points), not bytes.  `file` is borrowed from whoever owns
 * the source (a parser, a YAML document); diagnostics copy it.
 * ------------------------------------------------------------------------ */
typedef struct hg_pos {
	const char *file;
	unsigned line;
	unsigned col;
} hg_pos;

/* ------------------------------------------------------------------------
 * Growable byte buffer, always NUL-terminated once anything is written.
 * Allocation failure aborts (hg_xmalloc): the library does not limp on.
 * ------------------------------------------------------------------------ */
typedef struct hg_buf {
	char *data;
	size_t len;
	size_t cap;
} hg_buf;

void hg_buf_init(hg_buf *b);
void hg_buf_free(hg_buf *b);
void hg_buf_clear(hg_buf *b);
void hg_buf_putn(hg_buf *b, const char *s, size_t n);
void hg_buf_puts(hg_buf *b, const char *s);
void hg_buf_putc(hg_buf *b, char c);
void hg_buf_printf(hg_buf *b, const char *fmt, ...) HG_PRINTF(2, 3);
void hg_buf_vprintf(hg_buf *b, const char *fmt, va_list ap);
/* Returns the contents (malloc'd, never NULL) and leaves the buffer empty. */
char *hg_buf_steal(hg_buf *b);

void *hg_xmalloc(size_t n);
void *hg_xcalloc(size_t n, size_t size);
void *hg_xrealloc(void *p, size_t n);
char *hg_xstrdup(const char *s);
char *hg_xstrndup(const char *s, size_t n);

/* ------------------------------------------------------------------------
 * Diagnostics.  Printed as `file:line:col: severity: message [code]`
 * followed by `file:line:col: note: ...` lines (GNU format).  Codes are
 * stable and documented in the manual pages (herald(1) lists them all).
 * ------------------------------------------------------------------------ */
typedef enum hg_severity {
	HG_ERROR,	/* illegal action or malformed input */
	HG_WARNING,	/* suspicious but legal */
	HG_UNVERIFIED	/* could not be checked: hidden information */
} hg_severity;

typedef struct hg_diag {
	hg_severity severity;
	char *file;		/* NULL when there is no file (e.g. an option) */
	unsigned line, col;	/* 0 when unknown */
	char *code;		/* e.g. "hgn.unterminated-comment", "koc.sector-full" */
	char *message;
	char **notes;
	size_t nnotes;
	struct hg_rests_on *rests_on;	/* the reconstructed data the verdict
					   rests on (hg_diag_rests_on) */
	size_t nrests_on;
} hg_diag;

typedef struct hg_diags {
	hg_diag *v;
	size_t n, cap;
	size_t nerrors, nwarnings, nunverified;
} hg_diags;

void hg_diags_init(hg_diags *d);
void hg_diags_free(hg_diags *d);
void hg_diags_clear(hg_diags *d);
/* Adds a diagnostic; returns it so notes can be attached.  The pointer is
 * valid until the next hg_diag_add on the same list. */
hg_diag *hg_diag_add(hg_diags *d, hg_severity sev, hg_pos pos,
		     const char *code, const char *fmt, ...) HG_PRINTF(5, 6);
hg_diag *hg_diag_vadd(hg_diags *d, hg_severity sev, hg_pos pos,
		      const char *code, const char *fmt, va_list ap);
void hg_diag_note(hg_diag *dg, const char *fmt, ...) HG_PRINTF(2, 3);
/* Moves every diagnostic of src to the end of dst; src is left empty. */
void hg_diags_move(hg_diags *dst, hg_diags *src);
const char *hg_severity_name(hg_severity s);
/* GNU text form, with its notes, each line ending in '\n'.  colour: ANSI
 * escapes around the location and severity.  Control characters in the
 * file name, message and notes are escaped (hg_buf_put_visible). */
void hg_diag_format(const hg_diag *dg, hg_buf *out, int colour);

/* ------------------------------------------------------------------------
 * UTF-8 and names.  Names of areas, cards, factions and seats match their
 * canonical id or an alias case-insensitively and without regard to accents:
 * hg_name_fold maps "Líder" and "LIDER" to "lider".
 * ------------------------------------------------------------------------ */
/* Decodes one code point; returns its length in bytes, or -1 when the bytes
 * at s are not valid UTF-8 (overlong, surrogate, truncated, > U+10FFFF). */
int hg_utf8_decode(const char *s, size_t len, uint32_t *cp);
/* Offset of the first invalid byte, or (size_t)-1 when all is valid. */
size_t hg_utf8_invalid_at(const char *s, size_t len);
size_t hg_utf8_chars(const char *s, size_t len);
void hg_utf8_put(hg_buf *b, uint32_t cp);
/* Appends s[0..len) as it may be shown on a terminal (escape.c): control
 * characters C0 and DEL as \xHH, C1 (U+0080 to U+009F) as \uHHHH, and
 * bytes that are not UTF-8 as \xHH; everything else as it is.  keep_layout
 * leaves line feeds and tabs alone (text shown as a page), otherwise they
 * are escaped too (a diagnostic stays on its line).  A backslash is not
 * escaped: the JSON formats give the exact text. */
void hg_buf_put_visible(hg_buf *b, const char *s, size_t len, int keep_layout);
/* hg_buf_put_visible(b, s, strlen(s), 0). */
void hg_buf_puts_visible(hg_buf *b, const char *s);
/* Case- and accent-folded copy (malloc'd); invalid UTF-8 is copied bytewise. */
char *hg_name_fold(const char *s);
/* The same fold into out[size], NUL-terminated and truncated to fit; returns
 * the folded length, which is >= size when it did not fit. */
size_t hg_name_fold_to(const char *s, char *out, size_t size);
/* hg_name_fold(a) equals hg_name_fold(b); allocates nothing. */
int hg_name_eq(const char *a, const char *b);

/* A lookup table from folded names (ids and aliases) to small integers. */
typedef struct hg_names hg_names;
hg_names *hg_names_new(void);
void hg_names_free(hg_names *t);
/* Returns 0, or -1 when the folded name is already bound to another value
 * (*clash gets that value). */
int hg_names_add(hg_names *t, const char *name, int value, int *clash);
/* Returns the value, or -1 when the name is unknown. */
int hg_names_find(const hg_names *t, const char *name);
/* Up to max values whose folded name is closest to `name` (for "did you
 * mean" notes); returns how many were written. */
size_t hg_names_suggest(const hg_names *t, const char *name, int *values, size_t max);

/* ------------------------------------------------------------------------
 * The deterministic PRNG that serves every game (documented precisely in
 * herald-notation(5), section CHANCE):
 *   key    = BLAKE2b-256 (unkeyed) of the Seed tag's UTF-8 bytes;
 *   stream = ChaCha20 (IETF, 96-bit nonce of twelve zero bytes) keystream
 *            under key, block counter from 0, read as little-endian
 *            32-bit words in order;
 *   below(n) = rejection sampling: draw w; accept when
 *            w < 2^32 - (2^32 mod n), answer w mod n;
 *   die(s)  = 1 + below(s);
 *   shuffle = Fisher-Yates: for i = n-1 down to 1, j = below(i+1),
 *             swap items i and j.
 * ------------------------------------------------------------------------ */
typedef struct hg_prng {
	unsigned char key[32];
	uint32_t block;
	unsigned char stream[64];
	unsigned used;
} hg_prng;

void hg_prng_seed(hg_prng *r, const char *seed);
uint32_t hg_prng_u32(hg_prng *r);
uint32_t hg_prng_below(hg_prng *r, uint32_t n);
unsigned hg_prng_die(hg_prng *r, unsigned sides);
void hg_prng_shuffle(hg_prng *r, void *base, size_t n, size_t size);

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
	hg_ykind kind;
	hg_pos pos;
	char *scalar;		/* HG_Y_SCALAR: the text */
	int plain;		/* HG_Y_SCALAR: 1 when unquoted */
	hg_ynode **items;	/* HG_Y_SEQ: n items; HG_Y_MAP: n keys at even
				   indexes, each followed by its value */
	size_t n;
};

typedef struct hg_ydoc {
	char *file;
	hg_ynode *root;		/* NULL for an empty document */
} hg_ydoc;

/* Returns NULL (with diagnostics) on any error. */
hg_ydoc *hg_yaml_load_file(const char *path, hg_diags *d);
hg_ydoc *hg_yaml_load_mem(const char *name, const char *text, size_t len,
			  hg_diags *d);
void hg_ydoc_free(hg_ydoc *doc);

size_t hg_ymap_len(const hg_ynode *map);	/* number of pairs */
const hg_ynode *hg_ymap_key(const hg_ynode *map, size_t i);
const hg_ynode *hg_ymap_value(const hg_ynode *map, size_t i);
const hg_ynode *hg_ymap_get(const hg_ynode *map, const char *key);
/* Each helper returns 0 when the node is good, -1 after a diagnostic. */
int hg_ycheck_kind(const hg_ynode *n, hg_ykind kind, const char *what, hg_diags *d);
/* `keys` is a NULL-terminated list; a leading '!' marks a required key. */
int hg_ycheck_keys(const hg_ynode *map, const char *const *keys, const char *what,
		   hg_diags *d);
int hg_ystr(const hg_ynode *n, const char **out, hg_diags *d);
/* An id, name or alias: a string of at most HG_MAX_DATA_NAME bytes (a
 * longer one is a data.limit diagnostic). */
#define HG_MAX_DATA_NAME 64
int hg_yname(const hg_ynode *n, const char **out, hg_diags *d);
int hg_yint(const hg_ynode *n, long min, long max, long *out, hg_diags *d);
int hg_ybool(const hg_ynode *n, int *out, hg_diags *d);
/* The index of the scalar among the NULL-terminated words, matched with
 * hg_name_eq; otherwise a data.range diagnostic listing the words. */
int hg_yword(const hg_ynode *n, const char *const *words, int *out, hg_diags *d);

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
const char *hg_prov_kind_name(hg_prov_kind k);

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

void hg_provs_init(hg_provs *p);
void hg_provs_free(hg_provs *p);
/* Adds the provenance of every value of `doc`.  0, or -1 after
 * diagnostics (data.type, data.range, data.reference) on a malformed
 * `provenance`, `source` or `reconstructed`. */
int hg_provs_collect(hg_provs *p, const hg_ydoc *doc, hg_diags *d);
/* The entry of the value `datum` of `file` (NULL: of any file), or NULL. */
const hg_prov *hg_provs_find(const hg_provs *p, const char *file, const char *datum);
/* How many values (scalars) are of each kind, added into counts. */
void hg_provs_count(const hg_provs *p, size_t counts[HG_PROV_KINDS]);

/* A reconstructed datum a diagnostic's verdict rests on. */
typedef struct hg_rests_on {
	char *datum;
	char *file;
	unsigned line;
} hg_rests_on;

/* Says that the verdict of dg rests on the datum `datum` of `file` (NULL:
 * any file) when `p` marks it reconstructed: a note naming the datum and
 * its file, and an entry of dg->rests_on.  Nothing when it is published,
 * read from the rule text, unstated, or not found. */
void hg_diag_rests_on(hg_diag *dg, const hg_provs *p, const char *file, const char *datum);
/* Adds one entry to dg->rests_on, without a note (a report read back). */
void hg_diag_rests_on_add(hg_diag *dg, const char *datum, const char *file, unsigned line);
/* Copies src's rests_on entries to dst (a diagnostic copied elsewhere;
 * the notes are copied by the caller). */
void hg_diag_copy_rests_on(hg_diag *dst, const hg_diag *src);

/* Where game data is found: --data-dir, then each directory of
 * HERALD_DATA_PATH (colon-separated), then the installed $(pkgdatadir), then
 * (for an uninstalled build) the source tree's data/. */
typedef struct hg_datapath {
	char **dirs;
	size_t n;
	char **allowed;		/* --allow-data-path: more directories a
				   record's data files may come from */
	size_t nallowed;
} hg_datapath;

void hg_datapath_init(hg_datapath *p, const char *data_dir);
void hg_datapath_free(hg_datapath *p);
/* malloc'd path of the first existing dir/relname, or NULL. */
char *hg_datapath_find(const hg_datapath *p, const char *relname);
/* Lets records name data files under `dir` too (--allow-data-path). */
void hg_datapath_allow(hg_datapath *p, const char *dir);

/* ------------------------------------------------------------------------
 * The record model: one game-independent structure for every game.
 * ------------------------------------------------------------------------ */
/* A tag pair.  Its name and value belong to its record (a parsed game's
 * are in its arena): read them, and change them with hg_record_set_tag(). */
typedef struct hg_tag {
	char *name;
	char *value;
	hg_pos pos;
} hg_tag;

/* One token of an action's body, as the lexer cut it. */
typedef enum hg_atok_kind {
	HG_ATOK_WORD,		/* letters, digits, '_', '-', '\'', '.', '#' ...  */
	HG_ATOK_NUMBER,		/* decimal digits only */
	HG_ATOK_UNKNOWN,	/* '?': hidden information */
	HG_ATOK_PUNCT		/* one of , / + = > < @ & * x-less punctuation */
} hg_atok_kind;

typedef struct hg_atok {
	hg_atok_kind kind;
	unsigned len;		/* strlen(text) */
	char *text;
	hg_pos pos;
	size_t off;		/* byte offset of this token in hg_action_text.text */
} hg_atok;

/* An action as written: `seat: body`.  `text` is the body's tokens joined
 * by single spaces, the string each game's action parser matches.
 * hg_action_text_set makes the whole action in one allocation, `block`
 * (seat, tokens and texts point into it); an action built piece by piece
 * (block NULL) owns each piece.  The parser puts all of a game's actions
 * in its record's arena (`in_arena`: the game's tokens and texts, gathered
 * there as they are read, and one copy of a seat's name for the actions of
 * a run), freed with the record. */
typedef struct hg_action_text {
	char *seat;
	size_t seat_len;	/* strlen(seat) */
	hg_pos seat_pos;
	hg_atok *toks;
	size_t ntoks;
	char *text;
	size_t len;		/* strlen(text) */
	hg_pos pos;		/* of the first body token (or the seat) */
	void *block;		/* the one allocation, or NULL */
	int in_arena;		/* block is the record's: not freed alone */
	int ascii;		/* 1: every byte of text is ASCII (0: not known) */
} hg_action_text;

/* The position of the token that covers byte `off` of t->text. */
hg_pos hg_action_text_pos(const hg_action_text *t, size_t off);
/* Cuts `body` into tokens as the lexer does (used by the converters and
 * by engines that canonicalise).  Returns 0, or -1 with diagnostics. */
int hg_action_text_set(hg_action_text *t, const char *seat, const char *body,
		       hg_pos pos, hg_diags *d);
/* Frees what the action owns (the block, or each piece) and zeroes it. */
void hg_action_text_free(hg_action_text *t);

typedef enum hg_node_kind {
	HG_NODE_MOVENUM,	/* `12.` */
	HG_NODE_ACTION,		/* `seat: body` with an optional glyph */
	HG_NODE_COMMENT,	/* `{...}` or `; ...` */
	HG_NODE_NAG,		/* `$n` */
	HG_NODE_VARIATION	/* `( ... )` */
} hg_node_kind;

typedef struct hg_line hg_line;

typedef struct hg_node {
	hg_node_kind kind;
	hg_pos pos;
	unsigned number;	/* MOVENUM, NAG */
	hg_action_text action;	/* ACTION */
	char *glyph;		/* ACTION: "!", "?", "!!", "??", "!?", "?!" or NULL */
	char *comment;		/* COMMENT: text between the delimiters */
	int line_comment;	/* COMMENT: 1 for `;` comments */
	int own_line;		/* COMMENT in move text: it stood on lines of its
				   own, and the canonical form keeps it so */
	hg_line *variation;	/* VARIATION */
} hg_node;

struct hg_line {
	hg_node *nodes;
	size_t n, cap;
};

typedef struct hg_game_record {
	hg_line header;		/* comments before and between the tags */
	hg_tag *tags;
	size_t ntags, captags;
	hg_line moves;
	char *result;		/* termination marker: "*" or the string's text;
				   NULL when missing */
	hg_pos result_pos;
	hg_line trailer;	/* comments after the termination marker */
	hg_pos pos;		/* where the game starts */
	char *file;		/* owned copy of the source name */
	struct hg_arena *arena;	/* the parser's blocks for the actions (or NULL);
				   internal, freed with the record */
	int tags_in_arena;	/* the tags' names and values are the arena's
				   (internal: change tags with hg_record_set_tag) */
} hg_game_record;

hg_game_record *hg_record_new(const char *file);
void hg_record_free(hg_game_record *g);
const hg_tag *hg_record_tag(const hg_game_record *g, const char *name);
const char *hg_record_tag_value(const hg_game_record *g, const char *name);
/* Sets (replaces, or appends) a tag. */
void hg_record_set_tag(hg_game_record *g, const char *name, const char *value);
/* Removes a tag (nothing when it is absent). */
void hg_record_remove_tag(hg_game_record *g, const char *name);
/* The player names in seat order: the `Players` tag split at ';' (trimmed),
 * else the tags Seat1, Seat2, ... in order.  Returns the count; *names is a
 * malloc'd array of malloc'd strings (free with hg_strv_free). */
size_t hg_record_players(const hg_game_record *g, char ***names);
/* How many players hg_record_players() would name, without naming them. */
size_t hg_record_nplayers(const hg_game_record *g);
void hg_strv_free(char **v, size_t n);

hg_node *hg_line_push(hg_line *l, hg_node_kind kind, hg_pos pos);
void hg_line_free(hg_line *l);
hg_line *hg_line_new(void);

/* ------------------------------------------------------------------------
 * Parsing HGN.  A parser reads one source game by game, so a file of any
 * size is read in memory that does not grow with it.  Errors are reported
 * and the parser resynchronises at the next action, turn or game.
 * ------------------------------------------------------------------------ */
typedef struct hg_parser hg_parser;

/* `name` is what diagnostics call the source ("-" reads stdin when opened
 * with hg_parser_open_file). */
hg_parser *hg_parser_open_file(const char *path, hg_diags *d);
hg_parser *hg_parser_open_mem(const char *name, const char *text, size_t len);
/* A parser of a stream already open, named `name` in diagnostics; fp is
 * closed with the parser when `owned`. */
hg_parser *hg_parser_open_stream(const char *name, FILE *fp, int owned);
void hg_parser_close(hg_parser *p);
/* 1: *out is the next game (possibly with errors reported in d);
 * 0: end of input; -1: an I/O error (reported). */
int hg_parser_next(hg_parser *p, hg_game_record **out, hg_diags *d);
/* The byte offset in the source where the game last returned begins (its
 * first header comment, else its first tag pair, or before them the first
 * stray byte diagnosed for it): the boundary at which an archive can be cut
 * into shards that hold whole games, each with the diagnostics it had. */
uint64_t hg_parser_game_offset(const hg_parser *p);
/* How many bytes of the source have been read (for progress reports). */
uint64_t hg_parser_offset(const hg_parser *p);

/* Reading one file in pieces, each from its own parser (herald check -j N
 * parses the pieces of a large file in parallel).  A resume point is a
 * place in a file where a game begins and where a parser opened there
 * reads exactly what a parser that read the file from its start would:
 * the same games, diagnostics and positions. */
typedef struct hg_resume {
	uint64_t offset;	/* the game's '[', which begins its line */
	unsigned line;		/* the line it is on */
	uint64_t game_bytes;	/* bytes already counted against the game's
				   size limit (those after the termination
				   marker before it, less one) */
} hg_resume;
/* A likely resume point: the first '[' at or after `at_least` that begins
 * a line after a blank line, where the bytes before it back to the
 * previous game's last character are blanks.  `from` is a known resume
 * point (or { 0, 1, 0 } for the start of the file) at or before at_least:
 * lines are counted from it.  1: found, in *out; 0: none before the end
 * of the file; -1: a read error (errno set).  A candidate only: a comment,
 * string or broken game may hold such a line, which
 * hg_parser_resumes_at() tells. */
int hg_resume_find(int fd, const hg_resume *from, uint64_t at_least, hg_resume *out);
/* Opens `path` at a resume point: the parser reads from there on, with
 * offsets and lines as in the whole file. */
hg_parser *hg_parser_open_file_at(const char *path, const hg_resume *at, hg_diags *d);
/* Called after hg_parser_next() returned a game: 1 when the next game
 * begins at `at` and a parser opened there (hg_parser_open_file_at) would
 * read on exactly as this one will, else 0. */
int hg_parser_resumes_at(const hg_parser *p, const hg_resume *at);

/* ------------------------------------------------------------------------
 * Writing: canonical HGN, JSON and YAML.  The writers print the model as it
 * stands; hg_canonicalize rewrites each action in its game's canonical
 * spelling first (canonical ids, canonical seat names).
 * ------------------------------------------------------------------------ */
void hg_write_hgn(const hg_game_record *g, hg_buf *out);

/* JSON (documented by grammar/herald-record.schema.json): a document
 * {"herald": 1, "games": [ ... ]}.  Writers append one game object, or the
 * whole document; the readers return the games of a whole document. */
void hg_write_json_game(const hg_game_record *g, hg_buf *out, int pretty);
void hg_write_json(hg_game_record *const *games, size_t n, hg_buf *out);
int hg_read_json(const char *name, const char *text, size_t len,
		 hg_game_record ***games, size_t *n, hg_diags *d);
/* The same document read game by game from a stream, in memory that holds
 * one game (at most 16 MiB of JSON each): next gives 1 and a game (with
 * its shape errors in d, as hg_parser_next), 0 at the end of the document
 * or after an error that ends it (in d), -1 on a read error.  fp is not
 * closed. */
typedef struct hg_json_reader hg_json_reader;
hg_json_reader *hg_json_reader_open(const char *name, FILE *fp);
hg_json_reader *hg_json_reader_open_mem(const char *name, const char *text, size_t len);
int hg_json_reader_next(hg_json_reader *jr, hg_game_record **g, hg_diags *d);
void hg_json_reader_close(hg_json_reader *jr);
void hg_write_yaml(hg_game_record *const *games, size_t n, hg_buf *out);
int hg_read_yaml(const char *name, const char *text, size_t len,
		 hg_game_record ***games, size_t *n, hg_diags *d);
/* The same game by game from a stream, as hg_json_reader (at most 16 MiB
 * of YAML per game). */
typedef struct hg_yaml_reader hg_yaml_reader;
hg_yaml_reader *hg_yaml_reader_open(const char *name, FILE *fp);
int hg_yaml_reader_next(hg_yaml_reader *yr, hg_game_record **g, hg_diags *d);
void hg_yaml_reader_close(hg_yaml_reader *yr);

/* ------------------------------------------------------------------------
 * Rules engines.  Each game implements hg_game_class; nothing in the core
 * names a particular game.
 * ------------------------------------------------------------------------ */
typedef struct hg_gdata hg_gdata;	/* a game's loaded data (opaque) */
typedef struct hg_state hg_state;	/* a position (opaque) */
typedef struct hg_action hg_action;	/* a parsed action (opaque) */

typedef struct hg_action_list {
	hg_action **v;
	size_t n, cap;
} hg_action_list;

void hg_action_list_push(hg_action_list *l, hg_action *a);

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
	const char *named_by;	/* for messages: "the DeckFile tag" */
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
	const char *what;		/* "a deck file" */
	const char *const *keys;	/* NULL-terminated */
} hg_data_kind;

/* The document, or NULL after diagnostics. */
hg_ydoc *hg_data_load(const hg_load_ctx *ctx, const hg_data_name *n,
		      const hg_data_kind *kind, hg_diags *d);

/* Which file `n` names, so that records naming the same file share what
 * was loaded from it: 0 with its identity, or -1 when it names none that
 * may be read (hg_data_load then says why). */
typedef struct hg_data_id {
	uint64_t dev, ino;
} hg_data_id;
int hg_data_identify(const hg_load_ctx *ctx, const hg_data_name *n, hg_data_id *id);

/* A tag that names data files, as a game class declares it. */
typedef struct hg_data_tag {
	const char *name;	/* "DeckFile" */
	const char *search;	/* as hg_data_name.search */
	int list;		/* the value is a ';'-separated list of files */
} hg_data_tag;

/* The file names a data tag's value holds (one, or each of a list, blanks
 * around each trimmed, empty ones left out); returns how many, *names
 * malloc'd (free with hg_strv_free). */
size_t hg_data_tag_files(const hg_data_tag *t, const char *value, char ***names);

typedef struct hg_game_class {
	const char *id;			/* "kingdoms-of-crusaders" */
	const char *title;		/* "The Kingdoms of Crusaders" */
	const char *const *aliases;	/* NULL-terminated, may be NULL */
	const char *const *variants;	/* NULL-terminated "name: description" */
	const char *const *data_files;	/* NULL-terminated default files */
	/* The tags with which a record names its own data files ({ NULL }
	 * ends the list); no other tag loads data, whatever its name. */
	const hg_data_tag *data_tags;

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
} hg_game_class;

/* Applies `a` to *st, keeping the position when the action is illegal:
 * on 0, *st is the position after it (the old state is freed); on -1, *st
 * is untouched.  Costs one clone of the state per call. */
int hg_apply_keep(const hg_game_class *cls, hg_state **st, const hg_action *a,
		  hg_diags *d);

/* The registry of games. */
const hg_game_class *const *hg_games(void);
const hg_game_class *hg_game_find(const char *id_or_alias);

/* ------------------------------------------------------------------------
 * Sessions and replay.  A session owns the data path and caches loaded
 * game data.
 * ------------------------------------------------------------------------ */
typedef struct hg_session hg_session;

/* Data sets loaded from files records name that a session keeps at once
 * (each game's default data is kept besides); beyond, the least recently
 * used that no thread holds is unloaded. */
#define HG_SESSION_MAX_OWN_DATA 16

hg_session *hg_session_new(const char *data_dir);
void hg_session_free(hg_session *s);
const hg_datapath *hg_session_datapath(const hg_session *s);
/* Lets records name data files under `dir` too (--allow-data-path). */
void hg_session_allow_data_path(hg_session *s, const char *dir);
/* How many data sets the session holds now. */
size_t hg_session_loaded(hg_session *s);
/* The game class and data for a record (from its Game tag).  The data
 * stays loaded at least until the calling thread prepares another record
 * with this session (hg_check_game, hg_canonicalize and hg_generate
 * prepare one each): a state set up from it, such as hg_check_game's
 * *final, is to be freed before then. */
int hg_session_prepare(hg_session *s, const hg_game_record *rec,
		       const hg_game_class **cls, const hg_gdata **data,
		       hg_diags *d);

/* Called after each applied action (depth 0 on the main line). */
typedef struct hg_replay_hooks {
	void (*after_action)(void *ctx, const hg_game_class *cls,
			     const hg_node *node, const hg_state *after,
			     unsigned depth);
	void *ctx;
} hg_replay_hooks;

typedef struct hg_check_result {
	int syntax_ok;		/* the record parsed without error */
	int legal;		/* every action on every line was legal */
	int result_ok;		/* declared result agrees with the replay */
	size_t actions;		/* actions replayed (all lines) */
} hg_check_result;

/* Replays the record (main line and every variation) and checks the
 * termination marker and the Result tag against the replay.  *final, if
 * given, receives the main line's last legal position (caller frees with
 * cls->free_state). */
int hg_check_game(hg_session *s, const hg_game_record *rec, hg_diags *d,
		  const hg_replay_hooks *hooks, hg_check_result *res,
		  hg_state **final, const hg_game_class **cls);

/* Rewrites each action into its game's canonical form. 0 or -1. */
int hg_canonicalize(hg_session *s, hg_game_record *rec, hg_diags *d);

/* Generates a random legal game. */
hg_game_record *hg_generate(hg_session *s, const hg_game_class *cls,
			    const char *seed, unsigned players,
			    const char *variant, hg_diags *d);

/* ------------------------------------------------------------------------
 * Provably fair chance (herald-notation(5), FAIR CHANCE).  The game
 * master's secret is HG_FAIR_SECRET_BYTES random bytes, written as
 * lowercase hex; the record carries SeedCommit = hex(BLAKE2b-256(secret)),
 * each seat's entropy word as Entropy<n> (n: the seat's number from 1), and
 * at the end SeedReveal = the secret.  The effective seed, which drives the
 * PRNG as a Seed tag's value does, is
 *   hex(BLAKE2b-256("herald-fair-seed-v1" NUL || secret || le32(N) ||
 *       for n = 1..N: le32(len(Entropy<n>)) || Entropy<n>))
 * with N the number of players and an absent Entropy<n> taken as empty.
 * ------------------------------------------------------------------------ */
#define HG_FAIR_SECRET_BYTES 32
#define HG_FAIR_HEX_LEN 64
/* A new secret from libsodium's randombytes_buf: 0, or -1 when libsodium
 * cannot start. */
int hg_fair_secret_new(char hex[HG_FAIR_HEX_LEN + 1]);
/* The commitment to a secret: 0, or -1 when secret_hex is not a secret. */
int hg_fair_commit(const char *secret_hex, char commit[HG_FAIR_HEX_LEN + 1]);
/* The effective seed of the record's entropy tags with this secret: 0, or
 * -1 when secret_hex is not a secret. */
int hg_fair_effective_seed(const hg_game_record *rec, const char *secret_hex,
			   char seed[HG_FAIR_HEX_LEN + 1]);
/* The string a record's chance follows from: the Seed tag's value, else the
 * effective seed of its SeedReveal; NULL when it has neither (or a
 * malformed SeedReveal).  malloc'd.  Every engine reads its seed here. */
char *hg_record_chance_seed(const hg_game_record *rec);
/* The tag that gives the record's chance (Seed, else SeedReveal), or NULL. */
const hg_tag *hg_record_chance_tag(const hg_game_record *rec);
/* Checks the fairness tags (hgn.seed-commit): a SeedReveal must match its
 * SeedCommit, a committed record has no Seed, entropy tags name seats and
 * go with a commitment.  0, or -1 after diagnostics.  hg_check_game() runs
 * it before the replay. */
int hg_fair_check(const hg_game_record *rec, hg_diags *d);

/* ------------------------------------------------------------------------
 * Endings that are not the rules' ending (herald-notation(5), ENDINGS): the
 * action `SEAT: resign`, and the Termination tag (PGN's style) with the
 * Forfeit and TerminationReason tags.
 * ------------------------------------------------------------------------ */
enum {
	HG_END_NORMAL,		/* by the rules (no Termination tag, or "normal") */
	HG_END_RESIGNATION,	/* a seat's `resign` action */
	HG_END_AGREEMENT,	/* a result the seats agreed: shared by the seats it names */
	HG_END_FORFEIT,		/* the Forfeit tag's seat lost on time or by absence */
	HG_END_ADJUDICATION	/* the organiser's result, with a TerminationReason */
};
/* A Termination tag's value (NULL: none) as HG_END_*; -1 when unknown. */
int hg_termination_kind(const char *value);
const char *hg_termination_word(int kind);
/* Is the action `resign`? */
int hg_action_is_resign(const hg_action_text *t);
/* The index of the seat a player holds named `name` (cls->seat), or -1. */
int hg_seat_index(const hg_game_class *cls, const hg_state *st, const char *name);
/* The seats players hold, joined by ", ". */
void hg_seats_list(const hg_game_class *cls, const hg_state *st, hg_buf *out);
/* Does the record declare an ending that is not the rules' (a resignation
 * on its main line, or a Termination of agreement, forfeit or
 * adjudication)?  1, with the words that say it in why ("P1 resigned",
 * "forfeit of P2: ..."); else 0. */
int hg_record_ending(const hg_game_record *rec, hg_buf *why);
/* The result the resignation (or forfeit) of seat i gives. */
void hg_resign_result(const hg_game_class *cls, const hg_state *st, unsigned seat,
		      hg_buf *out);

/* ------------------------------------------------------------------------
 * Remote play: herald as the game master (herald-new(1), herald-move(1),
 * herald-reveal(1), herald-end(1)).  The secret seed is kept in the key
 * file <record>.key (mode 0600); every change to a game holds an exclusive
 * lock (flock) on that file, and rewrites the record atomically.
 * Diagnostics: master.game, master.random, master.key, master.locked,
 * master.record, master.over, master.stale, master.seat, master.turn,
 * master.entropy, master.io (herald-move(1)).
 * ------------------------------------------------------------------------ */
typedef struct hg_master_new_opts {
	const char *file;		/* the record's name, for diagnostics */
	const char *game;		/* id or alias */
	const char *variant;		/* NULL: the game's default */
	const char *date;		/* NULL: "????.??.??" */
	char **players;			/* names, in seat order */
	size_t nplayers;
	char **entropy;			/* per seat (nplayers of them), NULL: none */
	int await_entropy;		/* 1: no deal until the seats' words are in
					   (hg_master_entropy) */
} hg_master_new_opts;

/* "<record_path>.key", malloc'd. */
char *hg_master_key_path(const char *record_path);
/* Creates the key file holding the secret (O_EXCL, mode 0600): 0, or -1
 * with errno set (EEXIST when it exists: a key is never replaced). */
int hg_master_key_create(const char *key_path, const char *secret);
/* A new game's record: the tags, SeedCommit, the entropy tags, and the
 * chance before any seat decides (the opening deal); `secret` receives the
 * new secret.  NULL after diagnostics. */
hg_game_record *hg_master_new(hg_session *s, const hg_master_new_opts *o,
			      char secret[HG_FAIR_HEX_LEN + 1], hg_diags *d);

typedef struct hg_master hg_master;
/* Opens a master record under the exclusive lock of its key file (key_path
 * NULL: <path>.key), waiting for it unless wait is 0, and replays it with
 * the secret.  NULL after diagnostics. */
hg_master *hg_master_open(hg_session *s, const char *path, const char *key_path,
			  int wait, hg_diags *d);
/* Releases the lock and frees everything. */
void hg_master_close(hg_master *m);
const hg_game_record *hg_master_record(const hg_master *m);
/* The actions on the record's main line (what --after compares). */
size_t hg_master_actions(const hg_master *m);
/* One seat's action (`body`, or `SEAT: body` of that seat; `resign` in
 * every game), then herald's chance after it; the record rewritten.
 * after >= 0: the number of actions the seat saw (a stale move is refused).
 * 0: written, and `told` gets what the seat is told; -1: nothing written. */
int hg_master_move(hg_master *m, const char *seat, const char *body, long after,
		   hg_buf *told, hg_diags *d);
/* A seat's entropy word (seat NULL: none, and deal now), taken only while
 * the record holds no action; once every seat has given one (or at once
 * when seat is NULL) herald makes the opening deal.  0: written, `told`
 * says whose words are awaited or what was dealt; -1: nothing written. */
int hg_master_entropy(hg_master *m, const char *seat, const char *word, hg_buf *told,
		      hg_diags *d);
/* Publishes the secret as SeedReveal: 0, or -1 (nothing written). */
int hg_master_reveal(hg_master *m, hg_diags *d);
/* The organiser's ending (HG_END_AGREEMENT with its result, HG_END_FORFEIT
 * of `seat`, HG_END_ADJUDICATION with its result and reason), checked as
 * `herald check` will check it before it is written.  0, or -1. */
int hg_master_end(hg_master *m, int kind, const char *result, const char *seat,
		  const char *reason, hg_diags *d);

/* ------------------------------------------------------------------------
 * Seat views (src/lib/view.c, herald-view(1)).  The view of a record for a
 * seat is the record as that seat may see it: the main line with every
 * action as the game's view_action writes it for the seat; the tags but
 * Seed (which gives every card and die); no comments and no variations
 * (a recorder's comment or an alternative line may name hidden cards);
 * move numbers, glyphs and NAGs kept.  A view checks as legal or
 * unverified wherever the record is legal, and the view of a view is the
 * same view.
 * ------------------------------------------------------------------------ */
/* The tags a view leaves out: NULL-terminated. */
extern const char *const hg_view_withheld_tags[];
/* The seat `name` names in the record's game (set up from its tags):
 * 0 with *seat set, or -1 after a diagnostic (code view.unknown-seat,
 * listing the seats) or the record's own set-up diagnostics. */
int hg_view_seat(hg_session *s, const hg_game_record *rec, const char *name,
		 unsigned *seat, hg_diags *d);
/* The view of `rec` for `seat` (from hg_view_seat), a new record, or NULL
 * after diagnostics when the record's main line is malformed or illegal
 * (no view is made of a record herald cannot replay: code view.illegal
 * after the record's own diagnostics).  Unverified diagnostics of the
 * replay are kept in d. */
hg_game_record *hg_view_record(hg_session *s, const hg_game_record *rec,
			       unsigned seat, hg_diags *d);

/* Writes `len` bytes to `path` atomically: a temporary file in the same
 * directory, fsync, the original's owner, group and mode kept
 * (hg_rewrite_attributes), then rename.  A symbolic link is written
 * through: the file it leads to is replaced (hg_rewrite_target).  On any
 * error the original is untouched; returns 0 or -1 with errno set. */
int hg_write_file_atomic(const char *path, const char *data, size_t len);
/* The file that rewriting `path` replaces: path itself, or, when it is a
 * symbolic link, the file its links lead to (followed up to 40 times; the
 * last need not exist), so that the link stays a link.  malloc'd; NULL
 * with errno set (ELOOP, or readlink's). */
char *hg_rewrite_target(const char *path);
/* Gives fd, a new file about to replace `target`, the target's owner,
 * group and permission bits (a new file's mode under the umask when there
 * is no target).  An owner or group that cannot be given (not root) stays
 * the writer's, and the setuid or setgid bit is dropped with it.  0, or -1
 * with errno set. */
int hg_rewrite_attributes(int fd, const char *target);

#ifdef __cplusplus
}
#endif
#endif
