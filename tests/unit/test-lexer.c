/* test-lexer.c - the HGN lexer (grammar/hgn.ebnf, Part 1): every token
 * kind, positions in characters, glyphs and the lone '?', move numbers
 * against words, strings, comments, bad bytes, streaming, limits, and
 * hg_action_text_set. */
#include "unit.h"

#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "herald.h"
#include "lexer.h"

static const char *short_name(hg_tk k)
{
	switch (k) {
	case HG_TK_EOF: return "EOF";
	case HG_TK_LBRACKET: return "[";
	case HG_TK_RBRACKET: return "]";
	case HG_TK_STRING: return "STR";
	case HG_TK_MOVENUM: return "MOVE";
	case HG_TK_SEAT: return "SEAT";
	case HG_TK_WORD: return "WORD";
	case HG_TK_NUMBER: return "NUM";
	case HG_TK_PUNCT: return "PUNCT";
	case HG_TK_HIDDEN: return "HIDDEN";
	case HG_TK_GLYPH: return "GLYPH";
	case HG_TK_NAG: return "NAG";
	case HG_TK_COMMENT: return "COM";
	case HG_TK_LINE_COMMENT: return "LCOM";
	case HG_TK_LPAREN: return "(";
	case HG_TK_RPAREN: return ")";
	case HG_TK_STAR: return "*";
	case HG_TK_COLON: return ":";
	}
	return "?";
}

/* Every token of a lexer as "KIND'text'@line:col", space-separated (without
 * the final EOF); a bad token ends in '!'. */
static char *dump_lexer(hg_lexer *lx)
{
	hg_buf b;
	hg_buf_init(&b);
	for (;;) {
		const hg_token *t = hg_lexer_next(lx);
		if (t->kind == HG_TK_EOF)
			break;
		if (b.len)
			hg_buf_putc(&b, ' ');
		hg_buf_puts(&b, short_name(t->kind));
		if (t->kind == HG_TK_MOVENUM || t->kind == HG_TK_NAG)
			hg_buf_printf(&b, "%lu", t->value);
		else if (t->kind != HG_TK_LBRACKET && t->kind != HG_TK_RBRACKET &&
			 t->kind != HG_TK_LPAREN && t->kind != HG_TK_RPAREN &&
			 t->kind != HG_TK_STAR && t->kind != HG_TK_COLON)
			hg_buf_printf(&b, "'%s'", t->text);
		hg_buf_printf(&b, "@%u:%u%s", t->pos.line, t->pos.col, t->bad ? "!" : "");
	}
	return hg_buf_steal(&b);
}

static char *dump_n(const char *src, size_t len, hg_diags *d)
{
	hg_lexer *lx = hg_lexer_open_mem("t.hgn", src, len);
	hg_lexer_set_diags(lx, d);
	char *s = dump_lexer(lx);
	hg_lexer_close(lx);
	return s;
}

/* Tokens of src; the diagnostics go to *d (which the caller frees). */
static char *dump(const char *src, hg_diags *d)
{
	return dump_n(src, strlen(src), d);
}

/* Diagnostics as "line:col code" lines. */
static char *diag_lines(const hg_diags *d)
{
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < d->n; i++)
		hg_buf_printf(&b, "%u:%u %s\n", d->v[i].line, d->v[i].col, d->v[i].code);
	return hg_buf_steal(&b);
}

#define CHECK_LEX(src, want, want_diags) do { \
	hg_diags d_; \
	hg_diags_init(&d_); \
	char *got_ = dump((src), &d_); \
	ck_assert_str_eq(got_, (want)); \
	char *dl_ = diag_lines(&d_); \
	ck_assert_str_eq(dl_, (want_diags)); \
	free(got_); \
	free(dl_); \
	hg_diags_free(&d_); \
} while (0)

START_TEST(every_token_kind)
{
	CHECK_LEX("[Game \"x\"]\n1. P1: draw c12 , ? $3 {c} ; l\n( ) * : P2: y!?",
		  "[@1:1 WORD'Game'@1:2 STR'x'@1:7 ]@1:10 "
		  "MOVE1@2:1 SEAT'P1'@2:4 WORD'draw'@2:8 WORD'c12'@2:13 PUNCT','@2:17 "
		  "HIDDEN'?'@2:19 NAG3@2:21 COM'c'@2:24 LCOM'l'@2:28 "
		  "(@3:1 )@3:3 *@3:5 :@3:7 SEAT'P2'@3:9 WORD'y'@3:13 GLYPH'!?'@3:14",
		  "");
	CHECK_LEX("a/b+c=d>e<f@g&h|i~j^k%l",
		  "WORD'a'@1:1 PUNCT'/'@1:2 WORD'b'@1:3 PUNCT'+'@1:4 WORD'c'@1:5 "
		  "PUNCT'='@1:6 WORD'd'@1:7 PUNCT'>'@1:8 WORD'e'@1:9 PUNCT'<'@1:10 "
		  "WORD'f'@1:11 PUNCT'@'@1:12 WORD'g'@1:13 PUNCT'&'@1:14 WORD'h'@1:15 "
		  "PUNCT'|'@1:16 WORD'i'@1:17 PUNCT'~'@1:18 WORD'j'@1:19 PUNCT'^'@1:20 "
		  "WORD'k'@1:21 PUNCT'%'@1:22 WORD'l'@1:23", "");
	/* word characters: letters, digits, _ - ' . # and anything non-ASCII */
	CHECK_LEX("O'Brien x_y-z #3 ...", "WORD'O'Brien'@1:1 WORD'x_y-z'@1:9 WORD'#3'@1:15 "
		  "WORD'...'@1:18", "");
}
END_TEST

START_TEST(columns_count_characters)
{
	/* í is 2 bytes, ḩ 3, 🏰 4: columns count code points */
	CHECK_LEX("P1: Antioquía ḩoms 🏰 x\n\tP2: ñ",
		  "SEAT'P1'@1:1 WORD'Antioquía'@1:5 WORD'ḩoms'@1:15 WORD'🏰'@1:20 "
		  "WORD'x'@1:22 SEAT'P2'@2:2 WORD'ñ'@2:6", "");
	/* an accented seat, and a comment spanning lines moves the line count */
	CHECK_LEX("Antioquía: atacar {a\nbé\ncd} Damasco: x",
		  "SEAT'Antioquía'@1:1 WORD'atacar'@1:12 COM'a\nbé\ncd'@1:19 "
		  "SEAT'Damasco'@3:5 WORD'x'@3:14", "");
	/* a byte order mark is not a character */
	CHECK_LEX("\xEF\xBB\xBF" "P1: x", "SEAT'P1'@1:1 WORD'x'@1:5", "");
	/* token ends are positions too */
	hg_lexer *lx = hg_lexer_open_mem("t", "ab  «cd»", 11);
	const hg_token *t = hg_lexer_next(lx);
	ck_assert_uint_eq(t->end.col, 3);
	t = hg_lexer_next(lx);
	ck_assert_str_eq(t->text, "«cd»");
	ck_assert_uint_eq(t->pos.col, 5);
	ck_assert_uint_eq(t->end.col, 9);
	ck_assert_str_eq(t->pos.file, "t");
	hg_lexer_close(lx);
}
END_TEST

START_TEST(glyphs_and_the_lone_question_mark)
{
	/* attached to a body token: a glyph */
	CHECK_LEX("P1: place c07 1!", "SEAT'P1'@1:1 WORD'place'@1:5 WORD'c07'@1:11 "
		  "NUM'1'@1:15 GLYPH'!'@1:16", "");
	CHECK_LEX("a! b? c!! d?\? e!? f?!", "WORD'a'@1:1 GLYPH'!'@1:2 WORD'b'@1:4 GLYPH'?'@1:5 "
		  "WORD'c'@1:7 GLYPH'!!'@1:8 WORD'd'@1:11 GLYPH'?\?'@1:12 WORD'e'@1:15 "
		  "GLYPH'!?'@1:16 WORD'f'@1:19 GLYPH'?!'@1:20", "");
	/* standing alone: hidden information, with its own attached glyph */
	CHECK_LEX("draw ?", "WORD'draw'@1:1 HIDDEN'?'@1:6", "");
	CHECK_LEX("draw ?!", "WORD'draw'@1:1 HIDDEN'?'@1:6 GLYPH'!'@1:7", "");
	CHECK_LEX("draw ?\?", "WORD'draw'@1:1 HIDDEN'?'@1:6 GLYPH'?'@1:7", "");
	CHECK_LEX("draw ?!?", "WORD'draw'@1:1 HIDDEN'?'@1:6 GLYPH'!?'@1:7", "");
	CHECK_LEX("draw ? ?", "WORD'draw'@1:1 HIDDEN'?'@1:6 HIDDEN'?'@1:8", "");
	CHECK_LEX("P1:?", "SEAT'P1'@1:1 HIDDEN'?'@1:4", "");
	CHECK_LEX("a,?", "WORD'a'@1:1 PUNCT','@1:2 GLYPH'?'@1:3", "");
	CHECK_LEX("(? {x}?", "(@1:1 HIDDEN'?'@1:2 COM'x'@1:4 HIDDEN'?'@1:7", "");
	/* unknown glyphs end the action (bad), detached ones are dropped */
	CHECK_LEX("c12!!! x", "WORD'c12'@1:1 GLYPH'!!!'@1:4! WORD'x'@1:8",
		  "1:4 hgn.bad-glyph\n");
	CHECK_LEX("draw ?\?\?\?", "WORD'draw'@1:1 HIDDEN'?'@1:6 GLYPH'?\?\?'@1:7!",
		  "1:7 hgn.bad-glyph\n");
	CHECK_LEX("c12 ! x", "WORD'c12'@1:1 WORD'x'@1:7", "1:5 hgn.detached-glyph\n");
	CHECK_LEX("1.! $1!", "MOVE1@1:1 NAG1@1:5", "1:3 hgn.detached-glyph\n1:7 hgn.detached-glyph\n");
}
END_TEST

START_TEST(move_numbers_against_words)
{
	CHECK_LEX("12. 3.5 12... 1.5. 12 007.", "MOVE12@1:1 WORD'3.5'@1:5 MOVE12@1:9 "
		  "WORD'1.5.'@1:15 NUM'12'@1:20 MOVE7@1:23", "");
	/* "1.P1:" is a move number and a seat; digits then ':' are a seat */
	CHECK_LEX("1.P1: x 12: y", "MOVE1@1:1 SEAT'P1'@1:3 WORD'x'@1:7 SEAT'12'@1:9 "
		  "WORD'y'@1:13", "");
	CHECK_LEX("3.c12", "MOVE3@1:1 WORD'c12'@1:3", "");
	CHECK_LEX("1.:", "MOVE1@1:1 :@1:3", "");
	CHECK_LEX("x3. -1 4294967295. 4294967296.", "WORD'x3.'@1:1 WORD'-1'@1:5 "
		  "MOVE4294967295@1:8 MOVE0@1:20!", "1:20 hgn.bad-move-number\n");
	/* a word and then ':' with a space between: no seat prefix */
	CHECK_LEX("P1 : x", "WORD'P1'@1:1 :@1:4 WORD'x'@1:6", "");
}
END_TEST

START_TEST(strings_and_escapes)
{
	CHECK_LEX("\"a \\\"b\\\" \\\\ ñ\"", "STR'a \"b\" \\ ñ'@1:1", "");
	CHECK_LEX("\"\" x", "STR''@1:1 WORD'x'@1:4", "");
	CHECK_LEX("\"bad \\n\" x", "STR'bad \\n'@1:1! WORD'x'@1:10", "1:6 hgn.bad-escape\n");
	CHECK_LEX("[Event \"open\n[Date \"x\"]", "[@1:1 WORD'Event'@1:2 STR'open'@1:8! "
		  "[@2:1 WORD'Date'@2:2 STR'x'@2:7 ]@2:10", "1:8 hgn.unterminated-string\n");
	CHECK_LEX("\"ends \\", "STR'ends '@1:1!", "1:7 hgn.bad-escape\n1:1 hgn.unterminated-string\n");
	/* CR inside a string is text; CR LF ends the line */
	CHECK_LEX("\"a\rb\"", "STR'a\rb'@1:1", "");
}
END_TEST

START_TEST(comments_of_both_kinds)
{
	/* braces: verbatim, may span lines, "{" is text, CR LF becomes LF */
	CHECK_LEX("{ two\r\n lines {x ; y }z", "COM' two\n lines {x ; y '@1:1 WORD'z'@2:16", "");
	/* line comments: trimmed, to the end of the line */
	CHECK_LEX(";  hello { world \r\nx", "LCOM'hello { world'@1:1 WORD'x'@2:1", "");
	CHECK_LEX(";", "LCOM''@1:1", "");
	/* unterminated at the end of the input */
	CHECK_LEX("a {never", "WORD'a'@1:1 COM'never'@1:3!", "1:3 hgn.unterminated-comment\n");
	/* or at the next game: a '[' that begins a line after a blank line */
	CHECK_LEX("{x\n[y]\n\n [Game", "COM'x\n[y]\n\n '@1:1! [@4:2 WORD'Game'@4:3",
		  "1:1 hgn.unterminated-comment\n");
	hg_lexer *lx = hg_lexer_open_mem("t", "{x\n\n[G", 6);
	hg_lexer_next(lx);
	const hg_token *t = hg_lexer_next(lx);
	ck_assert_int_eq(t->kind, HG_TK_LBRACKET);
	ck_assert_int_eq(t->newline, 1);
	ck_assert_int_eq(t->blank_line, 1);
	hg_lexer_close(lx);
	/* a '}' without '{' */
	CHECK_LEX("a } b", "WORD'a'@1:1 WORD'b'@1:5", "1:3 hgn.unexpected-char\n");
}
END_TEST

START_TEST(nags)
{
	CHECK_LEX("$0 $255 $007", "NAG0@1:1 NAG255@1:4 NAG7@1:9", "");
	CHECK_LEX("$256 x", "WORD'x'@1:6", "1:1 hgn.bad-nag\n");
	CHECK_LEX("$ x $1x y $99999999999999999999", "WORD'x'@1:3 WORD'y'@1:9",
		  "1:1 hgn.bad-nag\n1:5 hgn.bad-nag\n1:11 hgn.bad-nag\n");
}
END_TEST

START_TEST(invalid_utf8_and_nul_at_their_position)
{
	/* outside comments a bad byte separates tokens; one report per run */
	CHECK_LEX("P1: dr\xff\xfe" "aw x", "SEAT'P1'@1:1 WORD'dr'@1:5 WORD'aw'@1:9 WORD'x'@1:12",
		  "1:7 hgn.invalid-utf8\n");
	/* inside comments and strings it becomes U+FFFD */
	CHECK_LEX("{Antioqu\xed\xff} \"S\xe3\xe3" "o\"",
		  "COM'Antioqu\xef\xbf\xbd\xef\xbf\xbd'@1:1 STR'S\xef\xbf\xbd\xef\xbf\xbdo'@1:13",
		  "1:9 hgn.invalid-utf8\n1:15 hgn.invalid-utf8\n");
	/* Latin-1 (an accent followed by ASCII): one error for the game, and
	 * its letters read as Latin-1 or Windows-1252 */
	CHECK_LEX("{Antioqu\xed" "a} \"S\xe3o \x93x\x94\"", "COM'Antioqu\xc3\xad" "a'@1:1 "
		  "STR'S\xc3\xa3o \xe2\x80\x9cx\xe2\x80\x9d'@1:13", "1:9 hgn.invalid-utf8\n");
	/* overlong, surrogate, truncated at the end */
	CHECK_LEX("a \xc0\xaf b \xed\xa0\x80 c \xe2\x82", "WORD'a'@1:1 WORD'b'@1:6 WORD'c'@1:12",
		  "1:3 hgn.invalid-utf8\n1:8 hgn.invalid-utf8\n1:14 hgn.invalid-utf8\n");
	/* NUL */
	hg_diags d;
	hg_diags_init(&d);
	char *got = dump_n("P1: a\0b\0\0c", 10, &d);
	ck_assert_str_eq(got, "SEAT'P1'@1:1 WORD'a'@1:5 WORD'b'@1:7 WORD'c'@1:10");
	char *dl = diag_lines(&d);
	ck_assert_str_eq(dl, "1:6 hgn.nul-byte\n1:8 hgn.nul-byte\n");
	ck_assert_str_eq(d.v[0].message, "NUL byte in the text");
	free(got);
	free(dl);
	hg_diags_free(&d);
	/* the message names the byte */
	hg_diags_init(&d);
	got = dump("\x80", &d);
	ck_assert_str_eq(d.v[0].message, "invalid UTF-8 (byte 0x80)");
	free(got);
	hg_diags_free(&d);
}
END_TEST

START_TEST(unexpected_characters_and_spaces)
{
	/* non-ASCII spaces separate tokens */
	CHECK_LEX("a\xc2\xa0" "b\xe3\x80\x80" "c", "WORD'a'@1:1 WORD'b'@1:3 WORD'c'@1:5", "");
	/* control characters, '\' and '`' start nothing */
	CHECK_LEX("a \x07 b \\ c ` d \xc2\x90 e", "WORD'a'@1:1 WORD'b'@1:5 WORD'c'@1:9 "
		  "WORD'd'@1:13 WORD'e'@1:17",
		  "1:3 hgn.unexpected-char\n1:7 hgn.unexpected-char\n1:11 hgn.unexpected-char\n"
		  "1:15 hgn.unexpected-char\n");
	hg_diags d;
	hg_diags_init(&d);
	char *got = dump("\x07", &d);
	ck_assert_str_eq(d.v[0].message, "unexpected control character U+0007");
	free(got);
	hg_diags_free(&d);
}
END_TEST

START_TEST(line_start_and_blank_line_flags)
{
	hg_lexer *lx = hg_lexer_open_mem("t", "a b\n c\n \t\n[d ;x\n\ne", 19);
	const hg_token *t;
	int want_nl[] = { 1, 0, 1, 1, 0, 0, 1 };
	int want_blank[] = { 0, 0, 0, 1, 0, 0, 1 };
	for (int i = 0; i < 7; i++) {
		t = hg_lexer_next(lx);
		ck_assert_msg(t->newline == want_nl[i], "token %d newline", i);
		ck_assert_msg(t->blank_line == want_blank[i], "token %d blank", i);
	}
	ck_assert_int_eq(hg_lexer_next(lx)->kind, HG_TK_EOF);
	hg_lexer_close(lx);
}
END_TEST

/* A long text mixing multibyte characters at every alignment. */
static char *long_text(size_t *len)
{
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; b.len < 300000; i++) {
		hg_buf_printf(&b, "%d. P%d: dráw c%d ḩ🏰%.*s ? {cómment %d\n} ; líne\n",
			      i, i % 4 + 1, i, i % 5, "xxxxx", i);
		if (i % 97 == 0)
			hg_buf_puts(&b, "\xff bad\n");
	}
	*len = b.len;
	return hg_buf_steal(&b);
}

START_TEST(stream_reads_like_memory)
{
	size_t len;
	char *text = long_text(&len);
	hg_diags dm, ds;
	hg_diags_init(&dm);
	hg_diags_init(&ds);
	char *from_mem = dump_n(text, len, &dm);

	FILE *fp = tmpfile();
	ck_assert_ptr_nonnull(fp);
	ck_assert_uint_eq(fwrite(text, 1, len, fp), len);
	rewind(fp);
	hg_lexer *lx = hg_lexer_open_stream("t.hgn", fp, 1);
	hg_lexer_set_diags(lx, &ds);
	char *from_stream = dump_lexer(lx);
	ck_assert_int_eq(hg_lexer_io_error(lx, NULL), 0);
	hg_lexer_close(lx);

	ck_assert_uint_gt(strlen(from_mem), 100000);
	ck_assert_int_eq(strcmp(from_mem, from_stream), 0);
	char *a = diag_lines(&dm), *b = diag_lines(&ds);
	ck_assert_str_eq(a, b);
	ck_assert_uint_gt(dm.n, 10);
	free(a);
	free(b);
	free(from_mem);
	free(from_stream);
	free(text);
	hg_diags_free(&dm);
	hg_diags_free(&ds);
}
END_TEST

/* ------------------------------------------------------------------------
 * The fast scanner against the clear path
 * ------------------------------------------------------------------------ */

/* Tokens the fast scanner returned, for a test that it did read. */
static size_t scanned_tokens;

/* One line of a dump: every field of a token. */
static void dump_token(hg_buf *b, hg_tk kind, const char *text, size_t len, unsigned long value,
		       unsigned line, unsigned col, unsigned end_line, unsigned end_col,
		       uint64_t off, int newline, int blank_line, int bad)
{
	hg_buf_printf(b, "%s '%.*s' %zu v%lu %u:%u-%u:%u @%llu n%d b%d x%d\n", short_name(kind),
		      (int)len, text, len, value, line, col, end_line, end_col,
		      (unsigned long long)off, newline, blank_line, bad);
}

/* Every field of every token, and every diagnostic, of `src` lexed from
 * memory or from a stream: by the clear path alone (`careful` 1), or by
 * the fast scanner's batches (hg_lexer_scan) and the clear path where it
 * stops (0; 2: the scanner's runs classed with SSE2 only). */
static char *full_dump(const char *src, size_t len, int stream, int careful,
		       const hg_limits *lim)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_lexer *lx;
	if (stream) {
		FILE *fp = tmpfile();
		ck_assert_ptr_nonnull(fp);
		ck_assert_uint_eq(fwrite(src, 1, len, fp), len);
		rewind(fp);
		lx = hg_lexer_open_stream("t.hgn", fp, 1);
	} else {
		lx = hg_lexer_open_mem("t.hgn", src, len);
	}
	hg_lexer_set_careful_only(lx, careful == 1);
	hg_lexer_set_plain_ssse3(lx, careful != 2);
	hg_lexer_set_diags(lx, &d);
	if (lim)
		hg_lexer_set_limits(lx, lim);
	hg_buf b;
	hg_buf_init(&b);
	static hg_scan_batch batch;
	size_t ntokens = 0;
	for (;;) {
		if (careful != 1 && hg_lexer_scan(lx, &batch) > 0) {
			ck_assert_uint_le(batch.n, HG_SCAN_BATCH);
			for (size_t i = 0; i < batch.n; i++) {
				const hg_scan_token *s = &batch.v[i];
				dump_token(&b, s->kind, s->text, s->len,
					   s->kind == HG_TK_MOVENUM ? s->value : 0, s->line, s->col,
					   s->line, s->end_col, hg_scan_off(&batch, s), (int)s->newline,
					   0, 0);
				ck_assert(!hg_lexer_game_abandoned(lx));
				ntokens++;
				scanned_tokens++;
			}
			continue;
		}
		const hg_token *t = hg_lexer_next(lx);
		ck_assert_uint_eq(strlen(t->text), t->len);
		dump_token(&b, t->kind, t->text, t->len, t->value, t->pos.line, t->pos.col,
			   t->end.line, t->end.col, t->off, t->newline, t->blank_line, t->bad);
		if (t->kind == HG_TK_EOF)
			break;
		if (hg_lexer_game_abandoned(lx)) {
			/* as the parser does: skip to the next game */
			hg_buf_puts(&b, "skip\n");
			hg_lexer_skip_game(lx);
			hg_lexer_begin_game(lx);
		}
		ntokens++;
	}
	for (size_t i = 0; i < d.n; i++)
		hg_buf_printf(&b, "%u:%u %s %s\n", d.v[i].line, d.v[i].col, d.v[i].code,
			      d.v[i].message);
	hg_buf_printf(&b, "offset %llu\n", (unsigned long long)hg_lexer_offset(lx));
	hg_lexer_close(lx);
	hg_diags_free(&d);
	return hg_buf_steal(&b);
}

/* Random text made of what records are made of, and of what they should
 * not be: plain words, seats, numbers, move numbers, punctuation, blanks
 * and blank lines, CR LF, tabs, non-ASCII letters, comments, strings,
 * glyphs, bad bytes. */
static char *soup(hg_prng *r, size_t pieces, size_t *len)
{
	static const char *const piece[] = {
		"P1:", "ricardo:", "draw", "c12", "tropa-2", "3", "12", "7.", "12...",
		"1.5", "a.2", "3>4", "/", "=", "&", "+", ",", " ", " ", " ", "  ", "\t",
		"\n", "\n", "\r\n", "\n\n", "\n \n", "{c}", "{a\n\n[b}", "; x\n",
		"\"s\"", "!", "?", "?!", "$3", "(", ")", "[", "]", "*", ":", "Antioquía",
		"é", "\xff", "\x00", "#x", "x'y", "_", "-3", "12:", "1.:", "99999999999.",
		"abcdefghijklmnopqrstuvwxyz", "0123456789", "\xe2\x80\x83",
		"\"Player 1; Player 2\"", "\"a \\\" b \\\\ c\"", "\"open", "\"Antioqu\xc3\xad" "a 3\"",
		"\"12345678901234567890\"", "\"\"", "\"x\ty\"",
	};
	hg_buf b;
	hg_buf_init(&b);
	for (size_t i = 0; i < pieces; i++) {
		const char *p = piece[hg_prng_below(r, HG_ARRAY_LEN(piece))];
		/* "\x00" is one NUL byte */
		hg_buf_putn(&b, p, p[0] == '\0' ? 1 : strlen(p));
		if (hg_prng_below(r, 3))
			hg_buf_putc(&b, ' ');
	}
	*len = b.len;
	return hg_buf_steal(&b);
}

START_TEST(fast_scanner_changes_nothing)
{
	hg_prng r;
	hg_prng_seed(&r, "plain path");
	hg_limits small;
	hg_limits_default(&small);
	small.token = 9;
	small.line = 60;
	small.game = 700;
	small.errors = 20;
	for (int i = 0; i < 400; i++) {
		size_t len;
		char *text = soup(&r, 20 + hg_prng_below(&r, 300), &len);
		const hg_limits *lim = i % 3 == 0 ? &small : NULL;
		char *careful = full_dump(text, len, 0, 1, lim);
		char *plain = full_dump(text, len, 0, i % 2 ? 2 : 0, lim);
		size_t at = 0;
		while (careful[at] && careful[at] == plain[at])
			at++;
		ck_assert_msg(careful[at] == plain[at], "text %d: the fast scanner differs at '%.60s' (clear path: '%.60s')",
			      i, plain + at, careful + at);
		free(careful);
		free(plain);
		free(text);
	}
}
END_TEST

/* The fast scanner stops short of the window's end; a stream refills it
 * at every 64 KB, wherever a token falls. */
START_TEST(fast_scanner_across_the_window)
{
	hg_prng r;
	hg_prng_seed(&r, "plain path, stream");
	for (int i = 0; i < 3; i++) {
		size_t len;
		char *text = soup(&r, 60000, &len);
		ck_assert_uint_gt(len, 3 * 64 * 1024);
		char *careful = full_dump(text, len, 0, 1, NULL);
		char *plain = full_dump(text, len, 1, 0, NULL);
		ck_assert_int_eq(strcmp(careful, plain), 0);
		free(careful);
		free(plain);
		free(text);
	}
}
END_TEST

/* Every bundled record (records/, with its broken ones), read by the
 * fast scanner and by the clear path alone, from memory and from a
 * stream: the same tokens, positions and diagnostics. */
static size_t records_compared;

static int compare_record(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	size_t n = strlen(path);
	if (type != FTW_F || n < 4 || strcmp(path + n - 4, ".hgn") != 0)
		return 0;
	FILE *fp = fopen(path, "rb");
	ck_assert_msg(fp != NULL, "cannot open %s", path);
	hg_buf text;
	hg_buf_init(&text);
	char chunk[4096];
	size_t got;
	while ((got = fread(chunk, 1, sizeof chunk, fp)) > 0)
		hg_buf_putn(&text, chunk, got);
	fclose(fp);
	for (int stream = 0; stream < 2; stream++) {
		char *careful = full_dump(text.data ? text.data : "", text.len, stream, 1, NULL);
		for (int way = 0; way <= 2; way += 2) {
			char *fast = full_dump(text.data ? text.data : "", text.len, stream, way,
					       NULL);
			ck_assert_msg(strcmp(careful, fast) == 0,
				      "%s: the fast scanner (%s) and the clear path differ", path,
				      way ? "SSE2" : "default");
			free(fast);
		}
		free(careful);
	}
	hg_buf_free(&text);
	records_compared++;
	return 0;
}

START_TEST(fast_scanner_reads_the_records_as_the_clear_path)
{
	const char *top = getenv("top_srcdir");
	ck_assert_msg(top != NULL, "top_srcdir is not set (make check exports it)");
	hg_buf dir;
	hg_buf_init(&dir);
	hg_buf_printf(&dir, "%s/records", top);
	records_compared = scanned_tokens = 0;
	ck_assert_int_eq(nftw(dir.data, compare_record, 16, FTW_PHYS), 0);
	ck_assert_uint_gt(records_compared, 50);
	/* (most of the records' tokens are the scanner's to read) */
	ck_assert_uint_gt(scanned_tokens, 10000);
	hg_buf_free(&dir);
}
END_TEST

START_TEST(token_limit)
{
	/* the default: a word of HG_MAX_TOKEN + 1 bytes */
	size_t n = HG_MAX_TOKEN + 1;
	char *s = hg_xmalloc(n + 3);
	memset(s, 'w', n);
	memcpy(s + n, " x", 3);
	hg_diags d;
	hg_diags_init(&d);
	hg_lexer *lx = hg_lexer_open_mem("t", s, n + 2);
	hg_lexer_set_diags(lx, &d);
	const hg_token *t = hg_lexer_next(lx);
	ck_assert_int_eq(t->kind, HG_TK_WORD);
	ck_assert_int_eq(t->bad, 1);
	ck_assert_uint_eq(t->len, HG_MAX_TOKEN);
	t = hg_lexer_next(lx);
	ck_assert_str_eq(t->text, "x");
	ck_assert_uint_eq(t->pos.col, HG_MAX_TOKEN + 3);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "hgn.too-long");
	ck_assert_str_eq(d.v[0].message, "word longer than 65536 bytes");
	ck_assert_uint_eq(d.v[0].col, 1);
	hg_lexer_close(lx);
	hg_diags_free(&d);
	free(s);

	/* exactly at the limit is fine */
	s = hg_xmalloc(HG_MAX_TOKEN + 3);
	s[0] = '{';
	memset(s + 1, 'c', HG_MAX_TOKEN);
	s[HG_MAX_TOKEN + 1] = '}';
	hg_diags_init(&d);
	char *got = dump_n(s, HG_MAX_TOKEN + 2, &d);
	ck_assert_uint_eq(d.n, 0);
	free(got);
	hg_diags_free(&d);
	free(s);

	/* comments and strings, with a lowered limit */
	hg_limits lim;
	hg_limits_default(&lim);
	lim.token = 4;
	hg_diags_init(&d);
	lx = hg_lexer_open_mem("t", "{abcdef} \"abcdef\" ;abcdef\nabcd", 30);
	hg_lexer_set_limits(lx, &lim);
	hg_lexer_set_diags(lx, &d);
	got = dump_lexer(lx);
	ck_assert_str_eq(got, "COM'abcd'@1:1! STR'abcd'@1:10! LCOM'abcd'@1:19! WORD'abcd'@2:1");
	char *dl = diag_lines(&d);
	ck_assert_str_eq(dl, "1:1 hgn.too-long\n1:10 hgn.too-long\n1:19 hgn.too-long\n");
	free(dl);
	free(got);
	hg_lexer_close(lx);
	hg_diags_free(&d);
}
END_TEST

START_TEST(line_limit)
{
	/* the default: a line of 1 MB and more, reported once, at the byte
	 * that crosses the limit; the next line is fine */
	size_t n = HG_MAX_LINE + 5000;
	char *s = hg_xmalloc(n + 4);
	for (size_t i = 0; i < n; i += 2) {
		s[i] = 'a';
		s[i + 1] = ' ';
	}
	memcpy(s + n, "\nb", 3);
	hg_diags d;
	hg_diags_init(&d);
	hg_lexer *lx = hg_lexer_open_mem("t", s, n + 2);
	hg_lexer_set_diags(lx, &d);
	size_t words = 0;
	const hg_token *t;
	while ((t = hg_lexer_next(lx))->kind != HG_TK_EOF)
		words++;
	ck_assert_uint_eq(words, n / 2 + 1);
	ck_assert_uint_eq(d.n, 1);
	ck_assert_str_eq(d.v[0].code, "hgn.line-too-long");
	ck_assert_uint_eq(d.v[0].line, 1);
	ck_assert_uint_eq(d.v[0].col, HG_MAX_LINE + 1);
	hg_lexer_close(lx);
	hg_diags_free(&d);
	free(s);
}
END_TEST

START_TEST(game_and_error_limits)
{
	hg_limits lim;
	hg_limits_default(&lim);
	lim.game = 10;
	lim.errors = 3;
	hg_diags d;
	hg_diags_init(&d);
	hg_lexer *lx = hg_lexer_open_mem("t", "abc def ghi jkl", 15);
	hg_lexer_set_limits(lx, &lim);
	hg_lexer_set_diags(lx, &d);
	hg_lexer_begin_game(lx);
	hg_lexer_next(lx);
	hg_lexer_next(lx);
	ck_assert_int_eq(hg_lexer_game_abandoned(lx), 0);
	hg_lexer_next(lx);	/* crosses byte 10 */
	ck_assert_int_eq(hg_lexer_game_abandoned(lx), 1);
	ck_assert_str_eq(d.v[0].code, "hgn.game-too-long");
	ck_assert_uint_eq(d.v[0].col, 11);
	hg_lexer_begin_game(lx);
	ck_assert_int_eq(hg_lexer_game_abandoned(lx), 0);
	hg_lexer_close(lx);
	hg_diags_clear(&d);

	/* errors: the limit-th is followed by hgn.too-many-errors, then silence */
	lx = hg_lexer_open_mem("t", "\\ \\ \\ \\ \\ x", 11);
	hg_lexer_set_limits(lx, &lim);
	hg_lexer_set_diags(lx, &d);
	hg_lexer_begin_game(lx);
	ck_assert_str_eq(hg_lexer_next(lx)->text, "x");
	char *dl = diag_lines(&d);
	ck_assert_str_eq(dl, "1:1 hgn.unexpected-char\n1:3 hgn.unexpected-char\n"
			 "1:5 hgn.unexpected-char\n1:7 hgn.too-many-errors\n");
	ck_assert_int_eq(hg_lexer_game_abandoned(lx), 1);
	free(dl);
	hg_lexer_close(lx);
	hg_diags_free(&d);
}
END_TEST

START_TEST(skip_to_the_next_game)
{
	hg_diags d;
	hg_diags_init(&d);
	const char *src = "junk \xff {x\n x [no\n  [Game \"g\"]";
	hg_lexer *lx = hg_lexer_open_mem("t", src, strlen(src));
	hg_lexer_set_diags(lx, &d);
	ck_assert_str_eq(hg_lexer_next(lx)->text, "junk");
	hg_lexer_skip_game(lx);
	const hg_token *t = hg_lexer_next(lx);
	ck_assert_int_eq(t->kind, HG_TK_LBRACKET);
	ck_assert_uint_eq(t->pos.line, 3);
	ck_assert_uint_eq(t->pos.col, 3);
	ck_assert_int_eq(t->newline, 1);
	ck_assert_uint_eq(d.n, 0);	/* skipped bytes are not diagnosed */
	hg_lexer_close(lx);
	hg_diags_free(&d);
}
END_TEST

START_TEST(action_text_set_cuts_like_the_lexer)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_action_text t;
	hg_pos pos = { "r.hgn", 7, 3 };
	ck_assert_int_eq(hg_action_text_set(&t, "Antioquía", "attack Homs from\nLatakia with 2,3 ?",
					    pos, &d), 0);
	ck_assert_str_eq(t.seat, "Antioquía");
	ck_assert_str_eq(t.text, "attack Homs from Latakia with 2 , 3 ?");
	ck_assert_uint_eq(t.ntoks, 9);
	ck_assert_int_eq(t.toks[0].kind, HG_ATOK_WORD);
	ck_assert_int_eq(t.toks[5].kind, HG_ATOK_NUMBER);
	ck_assert_int_eq(t.toks[6].kind, HG_ATOK_PUNCT);
	ck_assert_int_eq(t.toks[8].kind, HG_ATOK_UNKNOWN);
	/* "Antioquía: " is 11 characters: the body starts at column 3 + 11 */
	ck_assert_uint_eq(t.toks[0].pos.line, 7);
	ck_assert_uint_eq(t.toks[0].pos.col, 14);
	ck_assert_uint_eq(t.toks[3].pos.line, 8);
	ck_assert_uint_eq(t.toks[3].pos.col, 1);
	ck_assert_ptr_eq(t.toks[3].pos.file, pos.file);
	ck_assert_uint_eq(t.seat_pos.col, 3);
	ck_assert_uint_eq(t.pos.col, 14);
	/* offsets into text, and back to positions */
	ck_assert_uint_eq(t.toks[1].off, 7);
	ck_assert_int_eq(strncmp(t.text + t.toks[4].off, "with", 4), 0);
	hg_pos at = hg_action_text_pos(&t, 9);
	ck_assert_uint_eq(at.col, 21);
	ck_assert_uint_eq(d.n, 0);
	hg_action_text_free(&t);

	/* an unknown position stays unknown */
	hg_pos none = { "<generated>", 0, 0 };
	ck_assert_int_eq(hg_action_text_set(&t, "P1", "draw c12", none, &d), 0);
	ck_assert_uint_eq(t.toks[1].pos.line, 0);
	ck_assert_str_eq(t.toks[1].pos.file, "<generated>");
	hg_action_text_free(&t);
	ck_assert_int_eq(hg_action_text_set(&t, "P1", "x", pos, NULL), 0);
	hg_action_text_free(&t);
}
END_TEST

START_TEST(action_text_set_rejects)
{
	static const struct {
		const char *seat, *body, *code;
	} bad[] = {
		{ "P 1", "draw", "hgn.bad-seat" },
		{ "", "draw", "hgn.bad-seat" },
		{ "1.", "draw", "hgn.bad-seat" },
		{ "P1:", "draw", "hgn.bad-seat" },
		{ "P1", "", "hgn.empty-action" },
		{ "P1", "  ", "hgn.empty-action" },
		{ "P1", "place c07!", "hgn.bad-action" },
		{ "P1", "draw {c}", "hgn.bad-action" },
		{ "P1", "draw 3. x", "hgn.bad-action" },
		{ "P1", "draw P2: x", "hgn.bad-action" },
		{ "P1", "draw (x)", "hgn.bad-action" },
		{ "P1", "draw \"x\"", "hgn.bad-action" },
		{ "P1", "draw *", "hgn.bad-action" },
		{ "P1", "draw $1", "hgn.bad-action" },
		{ "P1", "a : b", "hgn.bad-action" },
		{ "P1", "a \\ b", "hgn.unexpected-char" },
		{ "P1", "dr\xff" "aw", "hgn.invalid-utf8" },
		{ "P1", "a ! b", "hgn.detached-glyph" },
	};
	hg_pos pos = { "r.hgn", 1, 1 };
	for (size_t i = 0; i < HG_ARRAY_LEN(bad); i++) {
		hg_diags d;
		hg_diags_init(&d);
		hg_action_text t;
		ck_assert_msg(hg_action_text_set(&t, bad[i].seat, bad[i].body, pos, &d) == -1,
			      "'%s: %s' accepted", bad[i].seat, bad[i].body);
		ck_assert_msg(d.n >= 1 && strcmp(d.v[0].code, bad[i].code) == 0,
			      "'%s: %s': got %s", bad[i].seat, bad[i].body,
			      d.n ? d.v[0].code : "nothing");
		ck_assert_ptr_null(t.seat);
		ck_assert_ptr_null(t.toks);
		hg_diags_free(&d);
	}
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("lexer");
	TCase *tc = tcase_create("tokens");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, every_token_kind);
	tcase_add_test(tc, columns_count_characters);
	tcase_add_test(tc, glyphs_and_the_lone_question_mark);
	tcase_add_test(tc, move_numbers_against_words);
	tcase_add_test(tc, strings_and_escapes);
	tcase_add_test(tc, comments_of_both_kinds);
	tcase_add_test(tc, nags);
	tcase_add_test(tc, invalid_utf8_and_nul_at_their_position);
	tcase_add_test(tc, unexpected_characters_and_spaces);
	tcase_add_test(tc, line_start_and_blank_line_flags);
	tcase_add_test(tc, stream_reads_like_memory);
	tcase_add_test(tc, fast_scanner_changes_nothing);
	tcase_add_test(tc, fast_scanner_across_the_window);
	tcase_add_test(tc, fast_scanner_reads_the_records_as_the_clear_path);
	tcase_add_test(tc, token_limit);
	tcase_add_test(tc, line_limit);
	tcase_add_test(tc, game_and_error_limits);
	tcase_add_test(tc, skip_to_the_next_game);
	tcase_add_test(tc, action_text_set_cuts_like_the_lexer);
	tcase_add_test(tc, action_text_set_rejects);
	suite_add_tcase(s, tc);
	return s;
}
