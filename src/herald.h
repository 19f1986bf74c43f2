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

/* What libherald exports.  The library is built with -fvisibility=hidden:
 * a function or object is part of its interface exactly when a public
 * header declares it with HG_EXPORT (tests/exports.test checks the built
 * library against the headers). */
#if defined(__GNUC__)
#define HG_EXPORT __attribute__((visibility("default")))
#else
#define HG_EXPORT
#endif

/* The library's version, PACKAGE_VERSION (static storage). */
HG_EXPORT const char *hg_version(void);

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
HG_EXPORT const char *hg_gettext(const char *msgid) HG_FORMAT_ARG(1);
/* The same for a message with a number: msgid (singular) or plural as the
 * language's plural rule chooses for n. */
HG_EXPORT const char *hg_ngettext(const char *msgid, const char *plural, unsigned long n)
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

/* The status of a function that ran out of memory: it freed what it had
 * built and, where it takes a list of diagnostics, added hg.out-of-memory
 * to it (libherald(3), ALLOCATION FAILURE).
 *
 * The rule, for every function of this header and herald-engine.h (the
 * exceptions are libherald(3)'s list): none ends the program when memory
 * runs out, wherever it is called.  A function that returns a new object
 * returns NULL; one that returns an int status returns HG_ENOMEM; an
 * hg_buf that cannot grow keeps what it holds and is marked failed
 * (check hg_buf_failed() once, when the text is complete); a diagnostic
 * or note that cannot be made is dropped and counted (check
 * hg_diags_lost() once, before the list is shown).  Inside a call that
 * reports HG_ENOMEM (an engine's callback, a hook), a failure of any of
 * them is that call's too. */
#define HG_ENOMEM (-2)

/* ------------------------------------------------------------------------
 * Growable byte buffer, always NUL-terminated once anything is written.
 * A buffer that cannot grow keeps what it holds, is marked failed, and
 * takes nothing more until cleared: as with stdio's ferror, a caller
 * writes the whole text and checks hg_buf_failed() once at the end
 * (data may be NULL then, when it failed before holding anything).
 * ------------------------------------------------------------------------ */
typedef struct hg_buf {
	char *data;
	size_t len;
	size_t cap;
	int failed;		/* could not grow (hg_buf_failed) */
} hg_buf;

HG_EXPORT void hg_buf_init(hg_buf *b);
HG_EXPORT void hg_buf_free(hg_buf *b);
HG_EXPORT void hg_buf_clear(hg_buf *b);
HG_EXPORT void hg_buf_putn(hg_buf *b, const char *s, size_t n);
HG_EXPORT void hg_buf_puts(hg_buf *b, const char *s);
HG_EXPORT void hg_buf_putc(hg_buf *b, char c);
HG_EXPORT void hg_buf_printf(hg_buf *b, const char *fmt, ...) HG_PRINTF(2, 3);
HG_EXPORT void hg_buf_vprintf(hg_buf *b, const char *fmt, va_list ap);
/* Returns the contents (malloc'd; of a failed buffer, the prefix it holds:
 * check hg_buf_failed() first) and leaves the buffer empty.  NULL only for
 * a buffer that holds nothing when no byte can be had for its "". */
HG_EXPORT char *hg_buf_steal(hg_buf *b);
/* 1 when the buffer could not grow (what it holds is then a prefix of what
 * was written), else 0; hg_buf_clear and hg_buf_free reset it. */
HG_EXPORT int hg_buf_failed(const hg_buf *b);

/* malloc, calloc, realloc, strdup and strndup that never return NULL:
 * each returns the new memory, and on failure says so and aborts: the one
 * exception to the rule above, for a program that prefers it (an engine
 * reports through hg_try_malloc and the rest, herald-engine.h). */
HG_EXPORT void *hg_xmalloc(size_t n);
HG_EXPORT void *hg_xcalloc(size_t n, size_t size);
HG_EXPORT void *hg_xrealloc(void *p, size_t n);
HG_EXPORT char *hg_xstrdup(const char *s);
HG_EXPORT char *hg_xstrndup(const char *s, size_t n);

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

/* A reconstructed datum a diagnostic's verdict rests on (herald-engine.h,
 * hg_diag_rests_on, adds them). */
typedef struct hg_rests_on {
	char *datum;
	char *file;
	unsigned line;
} hg_rests_on;

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
	size_t notes_lost;	/* notes that could not be made (hg_diag_note) */
} hg_diag;

typedef struct hg_diags {
	hg_diag *v;
	size_t n, cap;
	size_t nerrors, nwarnings, nunverified;
	size_t nlost;		/* diagnostics that could not be made, out of
				   memory (hg_diags_lost counts notes too) */
} hg_diags;

HG_EXPORT void hg_diags_init(hg_diags *d);
HG_EXPORT void hg_diags_free(hg_diags *d);
HG_EXPORT void hg_diags_clear(hg_diags *d);
/* Adds a diagnostic; returns it so notes can be attached.  The pointer is
 * valid until the next hg_diag_add on the same list.  Short of memory the
 * diagnostic is dropped and counted in d->nlost, and what is returned is a
 * stand-in that takes notes and keeps none (never NULL).  hg_diags_clear
 * resets the count. */
HG_EXPORT hg_diag *hg_diag_add(hg_diags *d, hg_severity sev, hg_pos pos,
		     const char *code, const char *fmt, ...) HG_PRINTF(5, 6);
/* The same with a va_list; returns the diagnostic added. */
HG_EXPORT hg_diag *hg_diag_vadd(hg_diags *d, hg_severity sev, hg_pos pos,
		      const char *code, const char *fmt, va_list ap);
/* Appends a note: 0, or HG_ENOMEM when it could not be made (dropped, and
 * counted in dg->notes_lost; also for the stand-in of a dropped
 * diagnostic). */
HG_EXPORT int hg_diag_note(hg_diag *dg, const char *fmt, ...) HG_PRINTF(2, 3);
/* Moves every diagnostic of src to the end of dst; src is left empty.  0,
 * or HG_ENOMEM when dst could not grow: src's are dropped, counted in
 * dst->nlost. */
HG_EXPORT int hg_diags_move(hg_diags *dst, hg_diags *src);
/* How many diagnostics and notes could not be made, out of memory (0: the
 * list is whole).  A caller that shows the list checks it once. */
HG_EXPORT size_t hg_diags_lost(const hg_diags *d);
/* "error", "warning" or "unverified" (static storage). */
HG_EXPORT const char *hg_severity_name(hg_severity s);
/* GNU text form, with its notes, each line ending in '\n'.  colour: ANSI
 * escapes around the location and severity.  Control characters in the
 * file name, message and notes are escaped (hg_buf_put_visible). */
HG_EXPORT void hg_diag_format(const hg_diag *dg, hg_buf *out, int colour);

/* ------------------------------------------------------------------------
 * UTF-8 and names.  Names of areas, cards, factions and seats match their
 * canonical id or an alias case-insensitively and without regard to accents:
 * hg_name_fold maps "Líder" and "LIDER" to "lider".
 * ------------------------------------------------------------------------ */
/* Decodes one code point; returns its length in bytes, or -1 when the bytes
 * at s are not valid UTF-8 (overlong, surrogate, truncated, > U+10FFFF). */
HG_EXPORT int hg_utf8_decode(const char *s, size_t len, uint32_t *cp);
/* Offset of the first invalid byte, or (size_t)-1 when all is valid. */
HG_EXPORT size_t hg_utf8_invalid_at(const char *s, size_t len);
/* The number of code points in s[0..len) (an invalid byte counts as one);
 * hg_utf8_put appends the UTF-8 bytes of cp. */
HG_EXPORT size_t hg_utf8_chars(const char *s, size_t len);
HG_EXPORT void hg_utf8_put(hg_buf *b, uint32_t cp);
/* Appends s[0..len) as it may be shown on a terminal (escape.c): control
 * characters C0 and DEL as \xHH, C1 (U+0080 to U+009F) as \uHHHH, and
 * bytes that are not UTF-8 as \xHH; everything else as it is.  keep_layout
 * leaves line feeds and tabs alone (text shown as a page), otherwise they
 * are escaped too (a diagnostic stays on its line).  A backslash is not
 * escaped: the JSON formats give the exact text. */
HG_EXPORT void hg_buf_put_visible(hg_buf *b, const char *s, size_t len, int keep_layout);
/* hg_buf_put_visible(b, s, strlen(s), 0). */
HG_EXPORT void hg_buf_puts_visible(hg_buf *b, const char *s);
/* Returns a case- and accent-folded copy (malloc'd); invalid UTF-8 is
 * copied bytewise.  Short of memory it still aborts, outside a call that
 * reports HG_ENOMEM (libherald(3), ALLOCATION FAILURE). */
HG_EXPORT char *hg_name_fold(const char *s);
/* The same fold into out[size], NUL-terminated and truncated to fit; returns
 * the folded length, which is >= size when it did not fit. */
HG_EXPORT size_t hg_name_fold_to(const char *s, char *out, size_t size);
/* 1 when hg_name_fold(a) equals hg_name_fold(b), else 0; allocates
 * nothing. */
HG_EXPORT int hg_name_eq(const char *a, const char *b);


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

HG_EXPORT void hg_prng_seed(hg_prng *r, const char *seed);
/* The stream's next word; below(n), a number from 0 to n - 1 (n > 0); and
 * die(sides), from 1 to sides (sides > 0), as defined above. */
HG_EXPORT uint32_t hg_prng_u32(hg_prng *r);
HG_EXPORT uint32_t hg_prng_below(hg_prng *r, uint32_t n);
HG_EXPORT unsigned hg_prng_die(hg_prng *r, unsigned sides);
HG_EXPORT void hg_prng_shuffle(hg_prng *r, void *base, size_t n, size_t size);



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

HG_EXPORT void hg_datapath_init(hg_datapath *p, const char *data_dir);
HG_EXPORT void hg_datapath_free(hg_datapath *p);
/* malloc'd path of the first existing dir/relname, or NULL. */
HG_EXPORT char *hg_datapath_find(const hg_datapath *p, const char *relname);
/* Lets records name data files under `dir` too (--allow-data-path). */
HG_EXPORT void hg_datapath_allow(hg_datapath *p, const char *dir);

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
 * by single spaces, the string each game's action parser matches.  Where
 * its seat, tokens and texts live is the library's business (`owner`,
 * opaque): hg_action_text_set makes an action that hg_action_text_free
 * frees; a parsed game's actions go with their record (hg_record_free). */
struct hg_action_owner;
typedef struct hg_action_text {
	char *seat;
	size_t seat_len;	/* strlen(seat) */
	hg_pos seat_pos;
	hg_atok *toks;
	size_t ntoks;
	char *text;
	size_t len;		/* strlen(text) */
	hg_pos pos;		/* of the first body token (or the seat) */
	int ascii;		/* private: 1 when the reader learnt, cutting the
				   tokens, that every byte of text is ASCII
				   (0: not known); ask hg_action_text_is_ascii */
	struct hg_action_owner *owner;	/* private: what frees the parts */
} hg_action_text;

/* 1 when every byte of t->text is ASCII, else 0 (an engine compares the
 * keywords of such a text byte for byte, without folding). */
HG_EXPORT int hg_action_text_is_ascii(const hg_action_text *t);

/* The position of the token that covers byte `off` of t->text. */
HG_EXPORT hg_pos hg_action_text_pos(const hg_action_text *t, size_t off);
/* Cuts `body` into tokens as the lexer does (used by the converters and
 * by engines that canonicalise).  Returns 0, or -1 with diagnostics, or
 * HG_ENOMEM short of memory (t empty, hg.out-of-memory in d, when given,
 * in place of the call's diagnostics). */
HG_EXPORT int hg_action_text_set(hg_action_text *t, const char *seat, const char *body,
		       hg_pos pos, hg_diags *d);
/* Frees what the action owns and zeroes it (nothing of a parsed record's
 * action, which its record frees). */
HG_EXPORT void hg_action_text_free(hg_action_text *t);

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
} hg_game_record;

/* A record is made by hg_record_new (or by a reader) and only there: the
 * library keeps more with it than this structure shows (the memory its
 * parts come from; change tags with hg_record_set_tag).  Returns the new
 * empty record, named `file` in diagnostics, or NULL short of memory. */
HG_EXPORT hg_game_record *hg_record_new(const char *file);
HG_EXPORT void hg_record_free(hg_game_record *g);
/* The first tag named `name`, or its value; NULL when there is none. */
HG_EXPORT const hg_tag *hg_record_tag(const hg_game_record *g, const char *name);
HG_EXPORT const char *hg_record_tag_value(const hg_game_record *g, const char *name);
/* Sets (replaces, or appends) a tag: 0, or HG_ENOMEM with the record as it
 * was. */
HG_EXPORT int hg_record_set_tag(hg_game_record *g, const char *name, const char *value);
/* Removes a tag (nothing when it is absent). */
HG_EXPORT void hg_record_remove_tag(hg_game_record *g, const char *name);
/* The player names in seat order: the `Players` tag split at ';' (trimmed),
 * else the tags Seat1, Seat2, ... in order.  Returns the count; *names is a
 * malloc'd array of malloc'd strings (free with hg_strv_free).  Short of
 * memory it returns 0 with *names NULL, which a caller tells from a record
 * without players by hg_record_nplayers() (which allocates nothing). */
HG_EXPORT size_t hg_record_players(const hg_game_record *g, char ***names);
/* How many players hg_record_players() would name, without naming them. */
HG_EXPORT size_t hg_record_nplayers(const hg_game_record *g);
HG_EXPORT void hg_strv_free(char **v, size_t n);

/* Appends a zeroed node of `kind` at `pos` and returns it (valid until the
 * next push on the line), or NULL short of memory (the line as it was).
 * hg_line_new returns a new empty line (for a variation; NULL short of
 * memory); hg_line_free frees what a line holds. */
HG_EXPORT hg_node *hg_line_push(hg_line *l, hg_node_kind kind, hg_pos pos);
HG_EXPORT void hg_line_free(hg_line *l);
HG_EXPORT hg_line *hg_line_new(void);

/* ------------------------------------------------------------------------
 * Parsing HGN.  A parser reads one source game by game, so a file of any
 * size is read in memory that does not grow with it.  Errors are reported
 * and the parser resynchronises at the next action, turn or game.
 * ------------------------------------------------------------------------ */
typedef struct hg_parser hg_parser;

/* `name` is what diagnostics call the source ("-" reads stdin when opened
 * with hg_parser_open_file).  Each returns the parser (free with
 * hg_parser_close), or NULL when there is no memory for it (an owned fp
 * is then closed); hg_parser_open_file returns NULL when the file cannot
 * be opened, or there is no memory (hg.out-of-memory), diagnosed in d. */
HG_EXPORT hg_parser *hg_parser_open_file(const char *path, hg_diags *d);
HG_EXPORT hg_parser *hg_parser_open_mem(const char *name, const char *text, size_t len);
/* A parser of a stream already open, named `name` in diagnostics; fp is
 * closed with the parser when `owned`. */
HG_EXPORT hg_parser *hg_parser_open_stream(const char *name, FILE *fp, int owned);
HG_EXPORT void hg_parser_close(hg_parser *p);
/* 1: *out is the next game (possibly with errors reported in d);
 * 0: end of input; -1: an I/O error (reported); HG_ENOMEM: out of memory,
 * the game is freed (*out NULL) and the diagnostics this call made are
 * replaced by hg.out-of-memory; the parser may then only be closed. */
HG_EXPORT int hg_parser_next(hg_parser *p, hg_game_record **out, hg_diags *d);
/* The byte offset in the source where the game last returned begins (its
 * first header comment, else its first tag pair, or before them the first
 * stray byte diagnosed for it): the boundary at which an archive can be cut
 * into shards that hold whole games, each with the diagnostics it had. */
HG_EXPORT uint64_t hg_parser_game_offset(const hg_parser *p);
/* How many bytes of the source have been read (for progress reports). */
HG_EXPORT uint64_t hg_parser_offset(const hg_parser *p);

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
HG_EXPORT int hg_resume_find(int fd, const hg_resume *from, uint64_t at_least, hg_resume *out);
/* Opens `path` at a resume point: the parser reads from there on, with
 * offsets and lines as in the whole file.  NULL when it cannot be opened
 * there, or there is no memory (diagnosed in d). */
HG_EXPORT hg_parser *hg_parser_open_file_at(const char *path, const hg_resume *at, hg_diags *d);
/* The same on a stream already open (a seekable one), closed with the
 * parser when `owned`: the parser, or NULL when it cannot seek there or
 * there is no memory (diagnosed in d; fp is then closed if owned). */
HG_EXPORT hg_parser *hg_parser_open_stream_at(const char *name, FILE *fp, int owned,
				    const hg_resume *at, hg_diags *d);
/* Called after hg_parser_next() returned a game: 1 when the next game
 * begins at `at` and a parser opened there (hg_parser_open_file_at) would
 * read on exactly as this one will, else 0. */
HG_EXPORT int hg_parser_resumes_at(const hg_parser *p, const hg_resume *at);

/* ------------------------------------------------------------------------
 * Writing: canonical HGN, JSON and YAML.  The writers print the model as it
 * stands; hg_canonicalize rewrites each action in its game's canonical
 * spelling first (canonical ids, canonical seat names).  Each writer
 * appends to `out` and returns 0, or HG_ENOMEM when memory ran out (its
 * own, `out`'s, jansson's or libyaml's): `out` then holds what it held
 * before the call and is marked failed (hg_buf_failed).
 * ------------------------------------------------------------------------ */
HG_EXPORT int hg_write_hgn(const hg_game_record *g, hg_buf *out);

/* JSON (documented by grammar/herald-record.schema.json): a document
 * {"herald": 1, "games": [ ... ]}.  Writers append one game object, or the
 * whole document; the readers return the games of a whole document. */
HG_EXPORT int hg_write_json_game(const hg_game_record *g, hg_buf *out, int pretty);
HG_EXPORT int hg_write_json(hg_game_record *const *games, size_t n, hg_buf *out);
/* hg_read_json and hg_read_yaml return 0 with the *n games in *games
 * (malloc'd), or -1 after diagnostics, with none: a document is taken
 * whole or not at all.  HG_ENOMEM: out of memory, no games, and the
 * diagnostics the call made replaced by hg.out-of-memory. */
HG_EXPORT int hg_read_json(const char *name, const char *text, size_t len,
		 hg_game_record ***games, size_t *n, hg_diags *d);
/* The same document read game by game from a stream, in memory that holds
 * one game (at most 16 MiB of JSON each): next gives 1 and a game (with
 * its shape errors in d, as hg_parser_next), 0 at the end of the document
 * or after an error that ends it (in d), -1 on a read error, HG_ENOMEM
 * when out of memory (as hg_parser_next; the reader is then at its end).
 * fp is not closed.  open returns the reader, or NULL when there is no
 * memory for it; close frees it. */
typedef struct hg_json_reader hg_json_reader;
HG_EXPORT hg_json_reader *hg_json_reader_open(const char *name, FILE *fp);
HG_EXPORT hg_json_reader *hg_json_reader_open_mem(const char *name, const char *text, size_t len);
HG_EXPORT int hg_json_reader_next(hg_json_reader *jr, hg_game_record **g, hg_diags *d);
/* The same for JSON Lines (convert --to jsonl): a game object on each
 * line, blank lines let pass; read with hg_json_reader_next. */
HG_EXPORT hg_json_reader *hg_jsonl_reader_open(const char *name, FILE *fp);
HG_EXPORT void hg_json_reader_close(hg_json_reader *jr);
HG_EXPORT int hg_write_yaml(hg_game_record *const *games, size_t n, hg_buf *out);
HG_EXPORT int hg_read_yaml(const char *name, const char *text, size_t len,
		 hg_game_record ***games, size_t *n, hg_diags *d);
/* The same game by game from a stream, as hg_json_reader (at most 16 MiB
 * of YAML per game; next returns HG_ENOMEM as hg_json_reader_next). */
typedef struct hg_yaml_reader hg_yaml_reader;
HG_EXPORT hg_yaml_reader *hg_yaml_reader_open(const char *name, FILE *fp);
HG_EXPORT int hg_yaml_reader_next(hg_yaml_reader *yr, hg_game_record **g, hg_diags *d);
HG_EXPORT void hg_yaml_reader_close(hg_yaml_reader *yr);

/* ------------------------------------------------------------------------
 * Games.  Each game's rules engine implements hg_game_class
 * (herald-engine.h); nothing in the core names a particular game.
 * ------------------------------------------------------------------------ */
typedef struct hg_gdata hg_gdata;	/* a game's loaded data (opaque) */
typedef struct hg_state hg_state;	/* a position (opaque) */
typedef struct hg_action hg_action;	/* a parsed action (opaque) */

/* The rules engine of a game.  Its structure is herald-engine.h's; an
 * end user names a game by these: its id ("kingdoms-of-crusaders") and
 * title (static storage), and frees a position a function of this header
 * gave (hg_check_game's *final) with hg_state_free (NULL: nothing). */
typedef struct hg_game_class hg_game_class;
HG_EXPORT const char *hg_game_id(const hg_game_class *cls);
HG_EXPORT const char *hg_game_title(const hg_game_class *cls);
HG_EXPORT void hg_state_free(const hg_game_class *cls, hg_state *st);

/* An action held pending while other seats answer within it (herald-move(1),
 * PENDING ACTIONS; src/lib/pending.c).  What every seat may know of it is
 * in the record's tags Pending, PendingAwaits and PendingFaceDown; each
 * part's text is the master's secret, in <keyfile>.pending, until the
 * whole action is written. */
typedef struct hg_pending_part {
	char *seat;		/* canonical */
	char *text;		/* its decisions (NULL when read from the tags) */
	int face_down;		/* how many cards it put down face down */
} hg_pending_part;

typedef struct hg_pending {
	char *seat;		/* whose action it is */
	char *declared;		/* what it declares in the open ("attack homs from latakia") */
	hg_pending_part *parts;	/* parts[0]: the acting seat's; then each answer */
	size_t nparts;
	char **awaited;		/* the seats whose step is awaited */
	size_t nawaited;
} hg_pending;

/* Called by a function that reports HG_ENOMEM, the functions below that
 * allocate report a failure (-1, HG_ENOMEM) when out of memory; elsewhere
 * a failure aborts. */
HG_EXPORT void hg_pending_free(hg_pending *p);
/* Sets seat's part (replacing one it had) and stops awaiting it: 0, or
 * -1 with p as it was. */
HG_EXPORT int hg_pending_set_part(hg_pending *p, const char *seat, const char *text, int face_down);
/* 0, or -1 with p as it was. */
HG_EXPORT int hg_pending_await(hg_pending *p, const char *seat);
HG_EXPORT int hg_pending_awaits(const hg_pending *p, const char *seat);
/* The public part from the record's tags: 1 (p filled, texts NULL), 0
 * when nothing is pending, HG_ENOMEM (p empty). */
HG_EXPORT int hg_pending_from_tags(const hg_game_record *rec, hg_pending *p);
/* Writes the public part into the tags (0, or HG_ENOMEM with some of
 * them not written); clear: removes them. */
HG_EXPORT int hg_pending_to_tags(hg_game_record *rec, const hg_pending *p);
HG_EXPORT void hg_pending_clear_tags(hg_game_record *rec);
/* What every seat is told of it, three lines ("pending: SEAT: DECLARED",
 * "face down: SEAT N, ...", "awaiting: SEAT, ..."), appended to out:
 * herald move, herald next and the e-mail judge say it alike. */
HG_EXPORT void hg_pending_summary(const hg_pending *p, hg_buf *out);
/* The secret: each part's text, in the file `path` (mode 0600, written
 * atomically), bound to the game's commitment and action count.  Reading
 * fills the texts of p's parts (p from the tags): 0, or -1 after a
 * diagnostic (master.pending), or HG_ENOMEM.  Writing: 0, or -1 with
 * errno (ENOMEM short of memory, with nothing written). */
HG_EXPORT int hg_pending_secret_write(const char *path, const char *commit, size_t nactions,
			    const hg_pending *p);
HG_EXPORT int hg_pending_secret_read(const char *path, const char *commit, size_t nactions,
			   hg_pending *p, hg_diags *d);

/* The registry of games. */
/* hg_games: every game, NULL-terminated.  hg_game_find: the game of that
 * id or alias (matched with hg_name_eq), or NULL. */
HG_EXPORT const hg_game_class *const *hg_games(void);
HG_EXPORT const hg_game_class *hg_game_find(const char *id_or_alias);

/* ------------------------------------------------------------------------
 * Sessions and replay.  A session owns the data path and caches loaded
 * game data.
 * ------------------------------------------------------------------------ */
typedef struct hg_session hg_session;

/* Data sets loaded from files records name that a session keeps at once
 * (each game's default data is kept besides); beyond, the least recently
 * used that no thread holds is unloaded. */
#define HG_SESSION_MAX_OWN_DATA 16

/* A new session, looking for data under data_dir (NULL: the data path
 * alone); hg_session_datapath is where it looks.  NULL when there is no
 * memory for it (libherald(3), ALLOCATION FAILURE). */
HG_EXPORT hg_session *hg_session_new(const char *data_dir);
HG_EXPORT void hg_session_free(hg_session *s);
HG_EXPORT const hg_datapath *hg_session_datapath(const hg_session *s);
/* Lets records name data files under `dir` too (--allow-data-path). */
HG_EXPORT void hg_session_allow_data_path(hg_session *s, const char *dir);
/* Returns how many data sets the session holds now. */
HG_EXPORT size_t hg_session_loaded(hg_session *s);
/* The game class and data for a record (from its Game tag).  The data
 * stays loaded at least until the calling thread prepares another record
 * with this session (hg_check_game, hg_canonicalize and hg_generate
 * prepare one each): a state set up from it, such as hg_check_game's
 * *final, is to be freed before then.  0, or -1 after diagnostics (no or
 * an unknown Game tag, data that does not load). */
HG_EXPORT int hg_session_prepare(hg_session *s, const hg_game_record *rec,
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
 * hg_state_free).  Returns 0 when the game is legal and its result
 * agrees, else -1; *res (if given) says which, and d why.  HG_ENOMEM: the
 * core's own allocations (diagnostics, the result's comparison) ran out
 * of memory; *final is NULL and the diagnostics the call made are
 * replaced by hg.out-of-memory.  The engine's own allocations, and the
 * loading of the game's data, still abort. */
HG_EXPORT int hg_check_game(hg_session *s, const hg_game_record *rec, hg_diags *d,
		  const hg_replay_hooks *hooks, hg_check_result *res,
		  hg_state **final, const hg_game_class **cls);

/* Rewrites each action into its game's canonical form. 0 or -1. */
HG_EXPORT int hg_canonicalize(hg_session *s, hg_game_record *rec, hg_diags *d);

/* Generates a random legal game: the record, or NULL after diagnostics. */
HG_EXPORT hg_game_record *hg_generate(hg_session *s, const hg_game_class *cls,
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
HG_EXPORT int hg_fair_secret_new(char hex[HG_FAIR_HEX_LEN + 1]);
/* The commitment to a secret: 0, or -1 when secret_hex is not a secret. */
HG_EXPORT int hg_fair_commit(const char *secret_hex, char commit[HG_FAIR_HEX_LEN + 1]);
/* The effective seed of the record's entropy tags with this secret: 0, or
 * -1 when secret_hex is not a secret. */
HG_EXPORT int hg_fair_effective_seed(const hg_game_record *rec, const char *secret_hex,
			   char seed[HG_FAIR_HEX_LEN + 1]);
/* The string a record's chance follows from: the Seed tag's value, else the
 * effective seed of its SeedReveal; NULL when it has neither (or a
 * malformed SeedReveal), or short of memory (which a caller tells by
 * hg_record_chance_tag(), allocating nothing).  malloc'd.  Every engine
 * reads its seed here. */
HG_EXPORT char *hg_record_chance_seed(const hg_game_record *rec);
/* The tag that gives the record's chance (Seed, else SeedReveal), or NULL. */
HG_EXPORT const hg_tag *hg_record_chance_tag(const hg_game_record *rec);
/* Checks the fairness tags (hgn.seed-commit): a SeedReveal must match its
 * SeedCommit, a committed record has no Seed, entropy tags name seats and
 * go with a commitment.  0, or -1 after diagnostics.  hg_check_game() runs
 * it before the replay. */
HG_EXPORT int hg_fair_check(const hg_game_record *rec, hg_diags *d);

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
HG_EXPORT int hg_termination_kind(const char *value);
/* The Termination word of an HG_END_* kind, or NULL for any other. */
HG_EXPORT const char *hg_termination_word(int kind);
/* Is the action `resign`? */
HG_EXPORT int hg_action_is_resign(const hg_action_text *t);
/* The index of the seat a player holds named `name` (the class's
 * seat_find), or -1 (also for a class without seat_find). */
HG_EXPORT int hg_seat_index(const hg_game_class *cls, const hg_state *st, const char *name);
/* The seats players hold, joined by ", ". */
HG_EXPORT void hg_seats_list(const hg_game_class *cls, const hg_state *st, hg_buf *out);
/* Does the record declare an ending that is not the rules' (a resignation
 * on its main line, or a Termination of agreement, forfeit or
 * adjudication)?  1, with the words that say it in why ("P1 resigned",
 * "forfeit of P2: ..."); else 0. */
HG_EXPORT int hg_record_ending(const hg_game_record *rec, hg_buf *why);
/* The result the resignation (or forfeit) of seat i gives, appended to
 * out: 0; or, called by a function that reports HG_ENOMEM, HG_ENOMEM when
 * out of memory, with out cut short (elsewhere a failure aborts). */
HG_EXPORT int hg_resign_result(const hg_game_class *cls, const hg_state *st, unsigned seat,
		      hg_buf *out);

/* ------------------------------------------------------------------------
 * Remote play: herald as the game master (herald-new(1), herald-move(1),
 * herald-reveal(1), herald-end(1)).  The secret seed is kept in the key
 * file <record>.key (mode 0600); every change to a game holds an exclusive
 * lock (flock) on that file, and rewrites the record atomically.
 * Diagnostics: master.game, master.random, master.key, master.locked,
 * master.record, master.over, master.stale, master.seat, master.turn,
 * master.entropy, master.io (herald-move(1)).
 * Short of memory each call frees what it built and returns HG_ENOMEM (or
 * NULL), with hg.out-of-memory in place of its diagnostics; a change then
 * wrote nothing, `told` holds what it held, and the master may only be
 * closed (libherald(3), ALLOCATION FAILURE).
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

/* "<record_path>.key", malloc'd (NULL: no memory). */
HG_EXPORT char *hg_master_key_path(const char *record_path);
/* Creates the key file holding the secret (O_EXCL, mode 0600): 0, or -1
 * with errno set (EEXIST when it exists: a key is never replaced). */
HG_EXPORT int hg_master_key_create(const char *key_path, const char *secret);
/* A new game's record: the tags, SeedCommit, the entropy tags, and the
 * chance before any seat decides (the opening deal); `secret` receives the
 * new secret.  NULL after diagnostics. */
HG_EXPORT hg_game_record *hg_master_new(hg_session *s, const hg_master_new_opts *o,
			      char secret[HG_FAIR_HEX_LEN + 1], hg_diags *d);

typedef struct hg_master hg_master;
/* Opens a master record under the exclusive lock of its key file (key_path
 * NULL: <path>.key), waiting for it unless wait is 0, and replays it with
 * the secret.  NULL after diagnostics (the lock released). */
HG_EXPORT hg_master *hg_master_open(hg_session *s, const char *path, const char *key_path,
			  int wait, hg_diags *d);
/* Releases the lock and frees everything. */
HG_EXPORT void hg_master_close(hg_master *m);
/* The record as it stands (the master's: valid until the next call). */
HG_EXPORT const hg_game_record *hg_master_record(const hg_master *m);
/* The actions on the record's main line (what --after compares). */
HG_EXPORT size_t hg_master_actions(const hg_master *m);
/* One seat's action (`body`, or `SEAT: body` of that seat; `resign` in
 * every game), then herald's chance after it; the record rewritten.
 * after >= 0: the number of actions the seat saw (a stale move is refused).
 * 0: written, and `told` gets what the seat is told; -1 (HG_ENOMEM):
 * nothing written. */
HG_EXPORT int hg_master_move(hg_master *m, const char *seat, const char *body, long after,
		   hg_buf *told, hg_diags *d);
/* A seat's entropy word (seat NULL: none, and deal now), taken only while
 * the record holds no action; once every seat has given one (or at once
 * when seat is NULL) herald makes the opening deal.  0: written, `told`
 * says whose words are awaited or what was dealt; -1 (HG_ENOMEM): nothing
 * written. */
HG_EXPORT int hg_master_entropy(hg_master *m, const char *seat, const char *word, hg_buf *told,
		      hg_diags *d);
/* Publishes the secret as SeedReveal: 0, or -1 or HG_ENOMEM (nothing
 * written). */
HG_EXPORT int hg_master_reveal(hg_master *m, hg_diags *d);
/* The organiser's ending (HG_END_AGREEMENT with its result, HG_END_FORFEIT
 * of `seat`, HG_END_ADJUDICATION with its result and reason), checked as
 * `herald check` will check it before it is written.  0, or -1 or
 * HG_ENOMEM (nothing written). */
HG_EXPORT int hg_master_end(hg_master *m, int kind, const char *result, const char *seat,
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
HG_EXPORT extern const char *const hg_view_withheld_tags[];
/* The seat `name` names in the record's game (set up from its tags):
 * 0 with *seat set, or -1 after a diagnostic (code view.unknown-seat,
 * listing the seats) or the record's own set-up diagnostics; HG_ENOMEM
 * with hg.out-of-memory when memory ran out. */
HG_EXPORT int hg_view_seat(hg_session *s, const hg_game_record *rec, const char *name,
		 unsigned *seat, hg_diags *d);
/* The view of `rec` for `seat` (from hg_view_seat), a new record, or NULL
 * after diagnostics when the record's main line is malformed or illegal
 * (no view is made of a record herald cannot replay: code view.illegal
 * after the record's own diagnostics; hg.out-of-memory in place of the
 * call's diagnostics when memory ran out).  Unverified diagnostics of the
 * replay are kept in d. */
HG_EXPORT hg_game_record *hg_view_record(hg_session *s, const hg_game_record *rec,
			       unsigned seat, hg_diags *d);

/* Writes `len` bytes to `path` atomically: a temporary file in the same
 * directory, fsync, the original's owner, group and mode kept
 * (hg_rewrite_attributes), then rename.  A symbolic link is written
 * through: the file it leads to is replaced (hg_rewrite_target).  On any
 * error the original is untouched; returns 0 or -1 with errno set (ENOMEM
 * short of memory). */
HG_EXPORT int hg_write_file_atomic(const char *path, const char *data, size_t len);
/* The file that rewriting `path` replaces: path itself, or, when it is a
 * symbolic link, the file its links lead to (followed up to 40 times; the
 * last need not exist), so that the link stays a link.  malloc'd; NULL
 * with errno set (ELOOP, ENOMEM, or readlink's). */
HG_EXPORT char *hg_rewrite_target(const char *path);
/* Gives fd, a new file about to replace `target`, the target's owner,
 * group and permission bits (a new file's mode under the umask when there
 * is no target).  An owner or group that cannot be given (not root) stays
 * the writer's, and the setuid or setgid bit is dropped with it.  0, or -1
 * with errno set. */
HG_EXPORT int hg_rewrite_attributes(int fd, const char *target);
/* The same for the file `name` in the directory open at dirfd, no link
 * followed (a file found by walking a directory is rewritten from the
 * directory's descriptor, never by a path that a link could divert). */
HG_EXPORT int hg_rewrite_attributes_at(int fd, int dirfd, const char *name);

#ifdef __cplusplus
}
#endif
#endif
