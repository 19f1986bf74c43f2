/* convert-json.c - JSON records read, with jansson: the JSON front end of
 * record-reader.c (the writer is convert-json-write.c).
 *
 * The shape (normative: grammar/herald-record.schema.json):
 *   {"herald": 1, "games": [GAME, ...]}
 *   GAME = {"tags": [{"name": N, "value": V}, ...], "header": [NODE, ...],
 *           "moves": [NODE, ...], "result": "P1" | "*" | null,
 *           "trailer": [NODE, ...]}          (empty header/trailer omitted)
 *   NODE = {"move": 12} | {"seat": "P1", "action": "draw c12", "glyph": "!"}
 *        | {"comment": "text"} | {"comment": "text", "line": true}
 *          (with "own_line": true, a move-text comment on lines of its own)
 *        | {"nag": 3} | {"variation": [NODE, ...]}
 * It carries the whole model, so HGN -> JSON -> HGN is lossless.
 *
 * record-reader.c checks the shape and builds the model.  Here the
 * punctuation is read as it streams, each scalar is decoded by jansson,
 * and values are handed to the reader one at a time with their line and
 * column (jansson keeps no positions for values); syntax errors get
 * jansson's line and column.
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "record-reader.h"

#define MAX_ERRORS HG_RECORD_MAX_ERRORS	/* then the rest is not checked */

/* ------------------------------------------------------------------------
 * Reading a stream, game by game.  jansson decodes one value at a time
 * (JSON_DISABLE_EOF_CHECK): the keys and values of the outer object, and
 * the scalars of each game, so memory holds one game, never the
 * document.  Here only the punctuation between those values is read --
 * white space, '{', ':', ',', '[', ']' and '}' -- and every value is
 * jansson's.
 * ------------------------------------------------------------------------ */
#define WINDOW (64 * 1024)	/* bytes read from a stream at a time */
#define KEPT 8			/* kept before the window's start on a refill */
/* The longest value of the outer object other than "games" (the version). */
#define MAX_OUTER_VALUE 4096

typedef struct source {
	FILE *fp;			/* NULL: a memory block */
	unsigned char *win;		/* a stream's window: KEPT + WINDOW bytes */
	const unsigned char *p, *end;	/* unread */
	int at_eof, io_error, err;
	unsigned line, col;		/* of *p, from 1 (col counts characters) */
	unsigned col_before_lf;		/* col of the last line feed taken */
	/* the value jansson is decoding */
	size_t given, cap;		/* bytes handed to it; the most it may have */
	int bytewise;			/* how it is handed (see source_give) */
	int capped;			/* it wanted more than cap */
	uint64_t taken;			/* bytes moved past, in all */
} source;

/* OUTER_LINES: JSON Lines, a game object on each line, no outer object. */
enum { OUTER_START, OUTER_GAMES, OUTER_LINES, OUTER_DONE };

/* An object or array open for the reader. */
typedef struct frame {
	char kind;		/* '{' or '[' */
	size_t count;		/* members or elements read */
	unsigned seen;		/* a bit for each of record_keys[] met */
} frame;

struct hg_json_reader {
	char *name;
	source src;
	hg_record_source source_ops;
	hg_record_reader r;
	frame *stack;		/* what is open, the innermost last */
	size_t depth, capstack;
	hg_buf key, text;	/* of the value last given */
	int state;
	size_t index;		/* of the next game */
	uint64_t game_start;	/* src.taken at the game's '{' */
	hg_pos key_end;		/* the last character of the key last read */
	int seen_herald, seen_games;
	size_t errors;		/* reported so far, for MAX_ERRORS */
	unsigned end_line;	/* JSON Lines: the line the last game ended on */
};

/* Refills the window; 0 at the end of the input (or on a read error). */
static int source_fill(source *s)
{
	if (!s->fp || s->at_eof)
		return 0;
	/* The last bytes stay: a value's decoding may give one back. */
	size_t keep = (size_t)(s->end - s->win);
	if (keep > KEPT)
		keep = KEPT;
	memmove(s->win, s->end - keep, keep);
	size_t got = fread(s->win + keep, 1, WINDOW, s->fp);
	if (got == 0) {
		if (ferror(s->fp)) {
			s->io_error = 1;
			s->err = errno;
		}
		s->at_eof = 1;
	}
	s->p = s->win + keep;
	s->end = s->p + got;
	return got > 0;
}

static int source_peek(source *s)
{
	if (s->p == s->end && !source_fill(s))
		return EOF;
	return *s->p;
}

/* Moves past one byte, counting lines and characters. */
static void source_step(source *s)
{
	unsigned char c = *s->p++;
	s->taken++;
	if (c == '\n') {
		s->col_before_lf = s->col;
		s->line++;
		s->col = 1;
	} else if ((c & 0xC0) != 0x80) {
		s->col++;
	}
}

static int source_skip_space(source *s)
{
	int c;
	while ((c = source_peek(s)) == ' ' || c == '\t' || c == '\n' || c == '\r')
		source_step(s);
	return c;
}

/* jansson's reader.  An object ends at a '}', so up to the next '}' is
 * handed at once, and never more than the object; a scalar is handed a
 * byte at a time, as jansson reads one byte past it and gives it back. */
static size_t source_give(void *buf, size_t buflen, void *data)
{
	source *s = data;
	if (s->given >= s->cap) {
		s->capped = 1;
		return 0;
	}
	if (s->p == s->end && !source_fill(s))
		return 0;
	size_t n = (size_t)(s->end - s->p);
	if (n > buflen)
		n = buflen;
	if (n > s->cap - s->given)
		n = s->cap - s->given;
	if (s->bytewise == '"') {
		/* a string ends at a '"' (at the first unescaped one: when this
		 * one is escaped, jansson asks again) */
		const unsigned char *quote = memchr(s->p, '"', n);
		if (quote)
			n = (size_t)(quote - s->p) + 1;
	} else if (s->bytewise) {
		n = 1;
	} else {
		const unsigned char *close = memchr(s->p, '}', n);
		if (close)
			n = (size_t)(close - s->p) + 1;
	}
	memcpy(buf, s->p, n);
	for (size_t i = 0; i < n; i++)
		source_step(s);
	s->given += n;
	return n;
}

/* Gives back the last n bytes handed (n is small: they are in the window). */
static void source_unread(source *s, size_t n)
{
	s->taken -= n;
	while (n--) {
		unsigned char c = *--s->p;
		if (c == '\n') {
			s->line--;
			s->col = s->col_before_lf;
		} else if ((c & 0xC0) != 0x80) {
			s->col--;
		}
	}
}

static hg_pos source_pos(const hg_json_reader *jr)
{
	hg_pos pos = { jr->name, jr->src.line, jr->src.col };
	return pos;
}

/* A syntax error: the document cannot be read on. */
static void syntax_error(hg_json_reader *jr, hg_pos pos, const char *fmt, ...) HG_PRINTF(3, 4);

static void syntax_error(hg_json_reader *jr, hg_pos pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_diag_vadd(jr->r.d, HG_ERROR, pos, "hgn.json", fmt, ap);
	va_end(ap);
		jr->state = OUTER_DONE;
}

static json_t *decode_capped(hg_json_reader *jr, size_t cap, const char *what,
			     size_t shown_cap);

/* The next value, at most `cap` bytes: NULL after a diagnostic.  `what`
 * names it in the message when it is longer. */
static json_t *decode_value(hg_json_reader *jr, size_t cap, const char *what)
{
	return decode_capped(jr, cap, what, cap);
}

/* The same, the message saying that `what` is longer than shown_cap (a
 * value of a game may have less than the game's limit left). */
static json_t *decode_capped(hg_json_reader *jr, size_t cap, const char *what,
			     size_t shown_cap)
{
	source *s = &jr->src;
	unsigned line0 = s->line, col0 = s->col;
	s->given = 0;
	s->cap = cap;
	s->capped = 0;
	int first = source_peek(s);
	/* an object up to a '}', a string a quote at a time (its opening
	 * one, then up to each next), anything else a byte at a time */
	s->bytewise = first == '{' ? 0 : first == '"' ? '"' : 1;
	json_error_t err;
	json_t *v = json_load_callback(source_give, s,
				       JSON_DISABLE_EOF_CHECK | JSON_DECODE_ANY |
					       JSON_REJECT_DUPLICATES,
				       &err);
	if (v) {
		if (err.position >= 0 && s->given > (size_t)err.position)
			source_unread(s, s->given - (size_t)err.position);
		return v;
	}
	hg_pos pos = { jr->name, line0, col0 };
	if (s->capped) {
		syntax_error(jr, pos, "%s is longer than %zu bytes", what, shown_cap);
	} else if (s->io_error) {
		pos.line = pos.col = 0;
		hg_diag_add(jr->r.d, HG_ERROR, pos, "hgn.io-error", "read error: %s",
			    strerror(s->err));
				jr->state = OUTER_DONE;
	} else if (json_error_code(&err) == json_error_out_of_memory || !err.text[0]) {
		/* jansson ran out of memory (it gives no text for some of its
		 * allocations): the reader's unit of work ends in HG_ENOMEM */
		hg_alloc_failure();
		jr->state = OUTER_DONE;
	} else {
		if (err.line > 0) {
			pos.line = line0 + (unsigned)err.line - 1;
			pos.col = err.line == 1 ? col0 + (unsigned)(err.column > 0 ? err.column - 1 : 0)
						: (unsigned)(err.column > 0 ? err.column : 0);
		}
		syntax_error(jr, pos, "%s", err.text);
	}
	return NULL;
}

/* A syntax error at the next character, worded as jansson's: "<what>
 * expected near '<it>'", or "near end of file" at the last character. */
static void unexpected(hg_json_reader *jr, const char *what)
{
	hg_pos pos = source_pos(jr);
	int c = source_peek(&jr->src);
	if (c == EOF && jr->src.io_error) {
		pos.line = pos.col = 0;
		hg_diag_add(jr->r.d, HG_ERROR, pos, "hgn.io-error", "read error: %s",
			    strerror(jr->src.err));
				jr->state = OUTER_DONE;
	} else if (c == EOF) {
		pos.col--;
		syntax_error(jr, pos, "%s expected near end of file", what);
	} else if (c > ' ' && c < 0x7f) {
		syntax_error(jr, pos, "%s expected near '%c'", what, c);
	} else {
		syntax_error(jr, pos, "%s expected", what);
	}
}

/* Expects the punctuation `c` after white space; 0, or -1 after a diagnostic. */
static int expect(hg_json_reader *jr, int c, const char *what)
{
	int got = source_skip_space(&jr->src);
	if (got == c) {
		source_step(&jr->src);
		return 0;
	}
	unexpected(jr, what);
	return -1;
}

/* ------------------------------------------------------------------------
 * A game, value by value, for record-reader.c.  jansson's tree of a value
 * costs far more than its text (an empty object some 230 bytes), so a game
 * is not decoded whole: its objects and arrays, variations included, are
 * read here member by member and element by element, and jansson decodes
 * only the scalars among them.  What the reader does not want is skipped
 * unread.  Memory then holds the record being built and one scalar, a
 * small constant times the text read.
 * ------------------------------------------------------------------------ */

/* The game is longer than HG_MAX_GAME: said (a syntax error: the rest of
 * the document is not read), 1; else 0. */
static int game_overrun(hg_json_reader *jr)
{
	if (jr->src.taken - jr->game_start <= HG_MAX_GAME)
		return 0;
	hg_pos pos = source_pos(jr);
	syntax_error(jr, pos, "games[%zu] is longer than %d bytes", jr->index, HG_MAX_GAME);
	return 1;
}

/* What is left of the game's limit. */
static size_t game_left(const hg_json_reader *jr)
{
	uint64_t used = jr->src.taken - jr->game_start;
	return used >= HG_MAX_GAME ? 0 : (size_t)(HG_MAX_GAME - used);
}

/* Moves past the rest of the object or array whose '{' or '[' has just
 * been taken, unread (brackets counted, strings skipped).  0, or -1 after
 * a diagnostic. */
static int skip_open(hg_json_reader *jr)
{
	source *s = &jr->src;
	size_t depth = 1;
	int in_string = 0, escaped = 0, c;
	do {
		c = source_peek(s);
		if (c == EOF) {
			unexpected(jr, in_string ? "'\"'" : "'}' or ']'");
			return -1;
		}
		source_step(s);
		if (in_string) {
			if (escaped)
				escaped = 0;
			else if (c == '\\')
				escaped = 1;
			else if (c == '"')
				in_string = 0;
		} else if (c == '"') {
			in_string = 1;
		} else if (c == '{' || c == '[') {
			depth++;
		} else if (c == '}' || c == ']') {
			depth--;
		}
		if ((s->taken & 0xffff) == 0 && game_overrun(jr))
			return -1;
	} while (depth > 0 || in_string);
	return game_overrun(jr) ? -1 : 0;
}

/* A key of printable ASCII without escapes, whole in the window, taken
 * as it is (the keys of a record are such); else NULL, and jansson
 * decodes it. */
static char *plain_key(source *s)
{
	const unsigned char *q = s->p + 1;
	while (q < s->end && *q >= 0x20 && *q < 0x7f && *q != '"' && *q != '\\')
		q++;
	if (q == s->end || *q != '"' || q - s->p > MAX_OUTER_VALUE)
		return NULL;
	char *key = hg_try_strndup((const char *)s->p + 1, (size_t)(q - s->p - 1));
	if (!key)
		return NULL;	/* (the unit of work fails) */
	while (s->p <= q)
		source_step(s);
	return key;
}

/* Object members, one by one: at the '{' (taken), then after each member.
 * 1 with the next key in *key (the caller frees it) and the source at its
 * value; 0 at the '}' (taken); -1 after a diagnostic.  `first`: no member
 * read yet. */
static int next_member(hg_json_reader *jr, int first, char **key)
{
	*key = NULL;
	int c = source_skip_space(&jr->src);
	if (c == '}') {
		source_step(&jr->src);
		return 0;
	}
	if (!first && expect(jr, ',', "',' or '}'") != 0)
		return -1;
	if (source_skip_space(&jr->src) != '"') {
		unexpected(jr, "string or '}'");
		return -1;
	}
	*key = plain_key(&jr->src);
	if (!*key && hg_alloc_unit_failed()) {
		jr->state = OUTER_DONE;
		return -1;
	}
	if (!*key) {
		json_t *k = decode_value(jr, MAX_OUTER_VALUE, "a key");
		if (!k)
			return -1;
		*key = hg_try_strdup(json_string_value(k));
		json_decref(k);
		if (!*key) {	/* (the unit of work fails) */
			jr->state = OUTER_DONE;
			return -1;
		}
	}
	jr->key_end = source_pos(jr);
	jr->key_end.col--;
	if (expect(jr, ':', "':'") != 0) {
		free(*key);
		*key = NULL;
		return -1;
	}
	source_skip_space(&jr->src);
	return game_overrun(jr) ? -1 : 1;
}

/* Array elements, one by one: 1 at the next element, 0 at the ']'
 * (taken), -1 after a diagnostic. */
static int next_element(hg_json_reader *jr, size_t i)
{
	int c = source_skip_space(&jr->src);
	if (c == ']') {
		source_step(&jr->src);
		return 0;
	}
	if (i > 0 && expect(jr, ',', "',' or ']'") != 0)
		return -1;
	source_skip_space(&jr->src);
	return game_overrun(jr) ? -1 : 1;
}

/* The keys of a record's objects, each seen at most once in an object. */
static const char *const record_keys[] = {
	"tags", "header", "moves", "result", "trailer", "name", "value", "move", "seat",
	"action", "glyph", "comment", "line", "own_line", "nag", "variation", NULL
};

/* A key seen twice in one object: a syntax error, where and as jansson
 * says it.  `seen` has a bit for each of record_keys[]. */
static int duplicate_key(hg_json_reader *jr, const char *key, unsigned *seen)
{
	for (unsigned i = 0; record_keys[i]; i++)
		if (strcmp(record_keys[i], key) == 0) {
			if (*seen & 1u << i) {
				syntax_error(jr, jr->key_end, "duplicate object key near '\"%s\"'",
					     key);
				return 1;
			}
			*seen |= 1u << i;
		}
	return 0;
}

/* A scalar jansson decoded, as the reader takes it: its text (a number as
 * JSON writes it), unquoted but for a string.  An object or array (of the
 * document around the games, decoded whole) is only its kind. */
static void scalar_value(hg_json_reader *jr, const json_t *j, hg_rvalue *v)
{
	hg_buf_clear(&jr->text);
	v->kind = json_is_object(j) ? HG_RV_MAP : json_is_array(j) ? HG_RV_LIST : HG_RV_SCALAR;
	v->plain = !json_is_string(j);
	v->is_string = json_is_string(j);
	switch (json_typeof(j)) {
	case JSON_STRING:
		hg_buf_putn(&jr->text, json_string_value(j), json_string_length(j));
		break;
	case JSON_INTEGER:
		hg_buf_printf(&jr->text, "%" JSON_INTEGER_FORMAT, json_integer_value(j));
		break;
	case JSON_REAL:
		hg_buf_printf(&jr->text, "%.17g", json_real_value(j));
		break;
	case JSON_TRUE:
		hg_buf_puts(&jr->text, "true");
		break;
	case JSON_FALSE:
		hg_buf_puts(&jr->text, "false");
		break;
	case JSON_NULL:
		hg_buf_puts(&jr->text, "null");
		break;
	default:
		break;
	}
	v->text = jr->text.data ? jr->text.data : "";
}

/* A value for the reader: a scalar decoded by jansson, or an object or
 * array opened (its '{' or '[' taken). */
static hg_rvalue_kind take_value(hg_json_reader *jr, hg_rvalue *v)
{
	int c = source_skip_space(&jr->src);
	v->pos = source_pos(jr);
	if (c == '{' || c == '[') {
		source_step(&jr->src);
		if (HG_TRY_GROW(jr->stack, jr->capstack, jr->depth + 1) != 0) {
			jr->state = OUTER_DONE;	/* (the unit of work fails) */
			return v->kind = HG_RV_STOP;
		}
		frame *f = &jr->stack[jr->depth++];
		f->kind = (char)c;
		f->count = 0;
		f->seen = 0;
		return v->kind = c == '{' ? HG_RV_MAP : HG_RV_LIST;
	}
	char what[64];
	snprintf(what, sizeof what, "games[%zu]", jr->index);
	json_t *j = decode_capped(jr, game_left(jr), what, HG_MAX_GAME);
	if (!j)
		return v->kind = HG_RV_STOP;
	scalar_value(jr, j, v);
	json_decref(j);
	return v->kind;
}

static hg_json_reader *of_source(hg_record_source *src)
{
	return (hg_json_reader *)((char *)src - offsetof(hg_json_reader, source_ops));
}

/* The reader's next value: the next member of the open object or element
 * of the open array. */
static hg_rvalue_kind json_next(hg_record_source *src, hg_rvalue *v)
{
	hg_json_reader *jr = of_source(src);
	memset(v, 0, sizeof *v);
	if (jr->state == OUTER_DONE || jr->depth == 0)
		return v->kind = HG_RV_STOP;
	frame *f = &jr->stack[jr->depth - 1];
	int rc;
	if (f->kind == '{') {
		char *key;
		source_skip_space(&jr->src);
		hg_pos key_pos = source_pos(jr);
		rc = next_member(jr, f->count == 0, &key);
		if (rc == 1 && duplicate_key(jr, key, &f->seen))
			rc = -1;
		if (rc == 1) {
			hg_buf_clear(&jr->key);
			hg_buf_puts(&jr->key, key);
			v->key = jr->key.data;
			v->key_pos = key_pos;
			if (hg_buf_failed(&jr->key)) {	/* (the unit of work fails) */
				jr->state = OUTER_DONE;
				rc = -1;
			}
		}
		free(key);
	} else {
		rc = next_element(jr, f->count);
	}
	if (rc < 0)
		return v->kind = HG_RV_STOP;
	if (rc == 0) {
		jr->depth--;
		return v->kind = HG_RV_END;
	}
	f->count++;
	return take_value(jr, v);
}

/* Skips the object or array json_next has just opened. */
static int json_skip(hg_record_source *src)
{
	hg_json_reader *jr = of_source(src);
	jr->depth--;
	return skip_open(jr);
}
/* The game that begins here, through record-reader.c: NULL when it is
 * no object (said), or after a syntax error. */
static hg_game_record *read_game(hg_json_reader *jr)
{
	jr->game_start = jr->src.taken;
	jr->depth = 0;
	hg_rvalue v;
	memset(&v, 0, sizeof v);
	if (take_value(jr, &v) == HG_RV_STOP)
		return NULL;
	hg_game_record *g = hg_record_read_game(&jr->r, &jr->source_ops, &v);
	if (hg_alloc_unit_failed())
		jr->state = OUTER_DONE;	/* (the unit of work fails: no more is read) */
	return g;
}

/* An error of the document around the games, which has no place. */
static void outer_error(hg_json_reader *jr, const char *fmt, ...) HG_PRINTF(2, 3);

static void outer_error(hg_json_reader *jr, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hg_pos pos = { jr->name, 0, 0 };
	hg_diag_vadd(jr->r.d, HG_ERROR, pos, "hgn.json", fmt, ap);
	va_end(ap);
}

/* "expected <expected> for <key>, found <j>", of a value of the document
 * around the games. */
static void outer_mismatch(hg_json_reader *jr, const char *key, const char *expected,
			   const json_t *j)
{
	hg_rvalue v;
	memset(&v, 0, sizeof v);
	scalar_value(jr, j, &v);
	v.pos.file = jr->name;
	size_t mark = key ? hg_record_path_key(&jr->r, key) : 0;
	hg_record_mismatch(&jr->r, &jr->source_ops, expected, &v);
	if (key)
		hg_record_path_pop(&jr->r, mark);
}

/* The outer object's members up to the games' '[' (state OUTER_GAMES) or
 * to its end (the document checked, state OUTER_DONE). */
static void read_outer(hg_json_reader *jr, int first)
{
	for (;;) {
		if (source_skip_space(&jr->src) == '}') {
			source_step(&jr->src);
			break;
		}
		if (!first && expect(jr, ',', "',' or '}'") != 0)
			return;
		first = 0;
		source_skip_space(&jr->src);
		hg_pos key_pos = source_pos(jr);
		if (source_peek(&jr->src) != '"') {
			unexpected(jr, "string or '}'");
			return;
		}
		json_t *key = decode_value(jr, MAX_OUTER_VALUE, "a key");
		if (!key)
			return;
		char *name = hg_try_strdup(json_string_value(key));
		json_decref(key);
		if (!name) {	/* (the unit of work fails) */
			jr->state = OUTER_DONE;
			return;
		}
		int *seen = strcmp(name, "games") == 0 ? &jr->seen_games
			    : strcmp(name, "herald") == 0 ? &jr->seen_herald : NULL;
		if (seen && *seen) {
			/* where and as jansson says it: at the key's last character */
			key_pos = source_pos(jr);
			key_pos.col--;
			syntax_error(jr, key_pos, "duplicate object key near '\"%s\"'", name);
			free(name);
			return;
		}
		if (expect(jr, ':', "':'") != 0) {
			free(name);
			return;
		}
		if (seen == &jr->seen_games) {
			free(name);
			jr->seen_games = 1;
			source_skip_space(&jr->src);
			if (source_peek(&jr->src) == '[') {
				source_step(&jr->src);
				jr->state = OUTER_GAMES;
				return;
			}
			json_t *v = decode_value(jr, MAX_OUTER_VALUE, "the value of 'games'");
			if (!v)
				return;
			outer_mismatch(jr, "games", jr->source_ops.a_list, v);
			json_decref(v);
			continue;
		}
		source_skip_space(&jr->src);
		json_t *v = decode_value(jr, MAX_OUTER_VALUE, "a value of the document");
		if (!v) {
			free(name);
			return;
		}
		if (seen) {
			jr->seen_herald = 1;
			if (!json_is_integer(v))
				outer_mismatch(jr, "herald", _("the format version 1"), v);
			else if (json_integer_value(v) != HG_RECORD_FORMAT_VERSION)
				/* one format string, which xgettext can read (it cannot
				 * expand JSON_INTEGER_FORMAT) */
				outer_error(jr, "unsupported format version %lld (this herald reads version %d)",
					    (long long)json_integer_value(v), HG_RECORD_FORMAT_VERSION);
		} else {
			hg_buf q;
			hg_buf_init(&q);
			hg_quote(&q, name);
			hg_pos pos = { jr->name, 0, 0 };
			hg_diag *dg = hg_diag_add(jr->r.d, HG_ERROR, pos, "hgn.json",
						  "unknown key %s in the document", q.data);
			hg_diag_note(dg, "the keys allowed here are: herald (required), games (required)");
			hg_buf_free(&q);
		}
		json_decref(v);
		free(name);
	}
	/* The end of the outer object: nothing may follow it. */
	if (source_skip_space(&jr->src) != EOF) {
		unexpected(jr, "end of file");
		return;
	}
	if (!jr->seen_herald)
		outer_error(jr, "missing key 'herald' in the document");
	if (!jr->seen_games)
		outer_error(jr, "missing key 'games' in the document");
	jr->state = OUTER_DONE;
}

/* A reader, or NULL when there is no memory for it. */
static hg_json_reader *json_reader_new(const char *name)
{
	hg_json_reader *jr = hg_open_calloc(1, sizeof *jr);
	if (jr)
		jr->name = hg_open_strdup(name ? name : "-");
	if (!jr || !jr->name) {
		free(jr);
		return NULL;
	}
	hg_record_reader_init(&jr->r, jr->name, "hgn.json");
	jr->source_ops.next = json_next;
	jr->source_ops.skip = json_skip;
	jr->source_ops.a_map = _("an object");
	jr->source_ops.a_list = _("an array");
	hg_buf_init(&jr->key);
	hg_buf_init(&jr->text);
	jr->src.line = jr->src.col = 1;
	return jr;
}

hg_json_reader *hg_json_reader_open(const char *name, FILE *fp)
{
	hg_json_reader *jr = json_reader_new(name);
	if (jr)
		jr->src.win = hg_open_malloc(KEPT + WINDOW);
	if (!jr || !jr->src.win) {
		hg_json_reader_close(jr);
		return NULL;
	}
	jr->src.fp = fp;
	jr->src.p = jr->src.end = jr->src.win;
	return jr;
}

hg_json_reader *hg_jsonl_reader_open(const char *name, FILE *fp)
{
	hg_json_reader *jr = hg_json_reader_open(name, fp);
	if (jr)
		jr->state = OUTER_LINES;
	return jr;
}

hg_json_reader *hg_json_reader_open_mem(const char *name, const char *text, size_t len)
{
	hg_json_reader *jr = json_reader_new(name);
	if (!jr)
		return NULL;
	jr->src.p = (const unsigned char *)text;
	jr->src.end = jr->src.p + len;
	jr->src.at_eof = 1;
	return jr;
}

void hg_json_reader_close(hg_json_reader *jr)
{
	if (!jr)
		return;
	free(jr->src.win);
	hg_record_reader_free(&jr->r);
	hg_buf_free(&jr->key);
	hg_buf_free(&jr->text);
	free(jr->stack);
	free(jr->name);
	free(jr);
}

static int json_reader_next(hg_json_reader *jr, hg_game_record **g, hg_diags *d);

/* A unit of work (util.c): after HG_ENOMEM the reader is done. */
int hg_json_reader_next(hg_json_reader *jr, hg_game_record **g, hg_diags *d)
{
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	int rc = json_reader_next(jr, g, d);
	if (hg_alloc_unit_failed()) {
		hg_record_free(*g);
		*g = NULL;
		jr->state = OUTER_DONE;
	}
	hg_pos pos = { jr->name, 0, 0 };
	return hg_alloc_unit_end(&u, d, ndiags, pos) == HG_ENOMEM ? HG_ENOMEM : rc;
}

static int json_reader_next(hg_json_reader *jr, hg_game_record **g, hg_diags *d)
{
	*g = NULL;
	hg_record_reader *r = &jr->r;
	r->d = d;
	r->errors_at_start = d->nerrors;
	r->gave_up = 0;
	if (jr->state == OUTER_START) {
		if (source_skip_space(&jr->src) != '{') {
			if (source_peek(&jr->src) == EOF && !jr->src.io_error)
				unexpected(jr, "'[' or '{'");
			else if (!jr->src.io_error) {
				/* not an object: jansson says what it is */
				json_t *v = decode_value(jr, MAX_OUTER_VALUE, "the document");
				if (v) {
					outer_mismatch(jr, NULL, jr->source_ops.a_map, v);
					json_decref(v);
				}
				jr->state = OUTER_DONE;
			}
		} else {
			source_step(&jr->src);
			read_outer(jr, 1);
		}
	}
	while (jr->state == OUTER_GAMES) {
		int c = source_skip_space(&jr->src);
		if (c == ']') {
			source_step(&jr->src);
			read_outer(jr, 0);
			break;
		}
		if (jr->index > 0 && expect(jr, ',', "',' or ']'") != 0)
			break;
		if (jr->index == 0 && c == EOF) {
			expect(jr, ']', "']'");
			break;
		}
		source_skip_space(&jr->src);
		size_t mark = hg_record_path_key(r, "games");
		hg_record_path_index(r, jr->index);
		*g = read_game(jr);
		hg_record_path_pop(r, mark);
		jr->index++;
		if (!*g)
			continue;	/* not an object: said so */
		break;
	}
	while (jr->state == OUTER_LINES) {
		/* Blank lines are let pass; a game shares its line with no other. */
		int c = source_skip_space(&jr->src);
		if (c == EOF) {
			if (jr->src.io_error)
				unexpected(jr, "a game");
			jr->state = OUTER_DONE;
			break;
		}
		if (jr->index > 0 && jr->src.line == jr->end_line) {
			unexpected(jr, "a line feed");
			break;
		}
		unsigned line = jr->src.line;
		size_t mark = r->path.len;
		hg_buf_printf(&r->path, "line %u", line);
		*g = read_game(jr);
		hg_record_path_pop(r, mark);
		jr->index++;
		jr->end_line = jr->src.line;
		if (*g)
			break;
	}
	if (jr->state == OUTER_DONE && jr->src.io_error && !*g)
		return -1;
	jr->errors += d->nerrors - r->errors_at_start;
	if (jr->errors >= MAX_ERRORS && jr->state != OUTER_DONE) {
		hg_pos pos = { jr->name, 0, 0 };
		hg_diag_add(d, HG_ERROR, pos, "hgn.json",
			    "%d errors: the rest of the document is not checked", MAX_ERRORS);
		jr->state = OUTER_DONE;
	}
	return *g ? 1 : 0;
}

int hg_read_json(const char *name, const char *text, size_t len,
		 hg_game_record ***games, size_t *n, hg_diags *d)
{
	*games = NULL;
	*n = 0;
	hg_alloc_unit u;
	size_t ndiags = d->n;
	hg_alloc_unit_begin(&u);
	hg_json_reader *jr = hg_json_reader_open_mem(name ? name : "-", text, len);
	size_t errors_at_start = d->nerrors;
	hg_game_record **v = NULL;
	size_t nv = 0, cap = 0;
	hg_game_record *g;
	int rc = 0;
	while (jr && (rc = hg_json_reader_next(jr, &g, d)) == 1) {
		if (HG_TRY_GROW(v, cap, nv + 1) != 0) {
			hg_record_free(g);
			break;
		}
		v[nv++] = g;
	}
	hg_json_reader_close(jr);
	if (!v && rc == 0)
		v = hg_try_calloc(1, sizeof *v);
	hg_pos pos = { name ? name : "-", 0, 0 };
	/* A document is taken whole or not at all. */
	int enomem = hg_alloc_unit_end(&u, d, ndiags, pos) == HG_ENOMEM;
	if (enomem || d->nerrors > errors_at_start) {
		for (size_t i = 0; i < nv; i++)
			hg_record_free(v[i]);
		free(v);
		return enomem ? HG_ENOMEM : -1;
	}
	*games = v;
	*n = nv;
	return 0;
}
