/* test-util.c - buffers, diagnostics, UTF-8, name folding and tables,
 * atomic rewrites, the data search path and the record helpers. */
#include "unit.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "action-cache.h"
#include "herald-engine.h"
#include "internal.h"
#include "pattern.h"
#include "tagset.h"

START_TEST(buf_grows_and_formats)
{
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < 1000; i++)
		hg_buf_printf(&b, "%d,", i % 10);
	ck_assert_uint_eq(b.len, 2000);
	ck_assert_int_eq(b.data[1998], '9');
	hg_buf_clear(&b);
	ck_assert_str_eq(b.data, "");
	hg_buf_puts(&b, "ab");
	hg_buf_putc(&b, 'c');
	char *s = hg_buf_steal(&b);
	ck_assert_str_eq(s, "abc");
	ck_assert_ptr_null(b.data);
	free(s);
}
END_TEST

/* hg_buf_join: the separator between items only, appended to what the
 * buffer holds. */
START_TEST(buf_join_separates_items)
{
	char *items[] = { "ana", "bea", "carla" };
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_join(&b, items, 0, ", ");
	ck_assert_uint_eq(b.len, 0);
	hg_buf_join(&b, items, 1, ", ");
	ck_assert_str_eq(b.data, "ana");
	hg_buf_clear(&b);
	hg_buf_puts(&b, "players: ");
	hg_buf_join(&b, items, 3, "; ");
	ck_assert_str_eq(b.data, "players: ana; bea; carla");
	hg_buf_free(&b);
}
END_TEST

/* The C library's text of a format, for comparing hg_buf_printf with. */
#define EXPECT_PRINTF(...)							\
	do {									\
		char want[256];							\
		int n = snprintf(want, sizeof want, __VA_ARGS__);		\
		hg_buf b;							\
		hg_buf_init(&b);						\
		hg_buf_puts(&b, "<");						\
		hg_buf_printf(&b, __VA_ARGS__);					\
		ck_assert_uint_eq(b.len, (size_t)n + 1);			\
		ck_assert_msg(memcmp(b.data + 1, want, (size_t)n) == 0 &&	\
			      b.data[b.len] == '\0',				\
			      "'%s' wrote '%s', not '%s'", #__VA_ARGS__,	\
			      b.data + 1, want);				\
		hg_buf_free(&b);						\
	} while (0)

/* hg_buf_printf writes what snprintf writes: the formats of its own path
 * (buf-format.c) at the edges of their types, and those it leaves to the
 * C library. */
START_TEST(buf_printf_writes_what_snprintf_writes)
{
	EXPECT_PRINTF("plain text");
	EXPECT_PRINTF("%s", "");
	EXPECT_PRINTF("[%s \"%s\"]", "Game", "crusader-kingdoms");
	EXPECT_PRINTF("%u.%u", 0u, 4294967295u);
	EXPECT_PRINTF("$%u", 255u);
	EXPECT_PRINTF("%d %d %d %i", 0, -1, INT_MIN, INT_MAX);
	EXPECT_PRINTF("%ld %ld %lu", LONG_MIN, LONG_MAX, ULONG_MAX);
	EXPECT_PRINTF("%lld %lld %llu", LLONG_MIN, LLONG_MAX, ULLONG_MAX);
	EXPECT_PRINTF("%zu %zu", (size_t)0, SIZE_MAX);
	EXPECT_PRINTF("%c.%d%%", 'a' + 2, 7);
	EXPECT_PRINTF("100%% %s%s", "a", "b");
	EXPECT_PRINTF("%c", 0);	/* a NUL, counted */
	/* left to the C library */
	EXPECT_PRINTF("%5d|%-4s|%03u|%.2s|%x|%hhu", 42, "ab", 7u, "abc", 255u, 300);
	EXPECT_PRINTF("%2$s %1$s", "b", "a");
	EXPECT_PRINTF("%zx %g %p", (size_t)255, 1.5, (void *)0);
	/* a long text: the buffer grows */
	char big[200];
	memset(big, 'x', sizeof big - 1);
	big[sizeof big - 1] = '\0';
	EXPECT_PRINTF("%s:%s", big, "tail");
}
END_TEST

/* Blocks from an arena are aligned, distinct and keep what was written to
 * them until the arena is freed, big blocks included. */
START_TEST(arena_blocks_are_aligned_and_distinct)
{
	enum { BLOCKS = 4000 };
	struct hg_arena *a = hg_arena_new();
	unsigned char *block[BLOCKS];
	size_t size[BLOCKS];
	hg_prng r;
	hg_prng_seed(&r, "arena");
	for (size_t i = 0; i < BLOCKS; i++) {
		size[i] = i % 500 == 7 ? 40000 + hg_prng_below(&r, 100000)
				       : 1 + hg_prng_below(&r, 600);
		block[i] = hg_arena_alloc(a, size[i]);
		ck_assert_ptr_nonnull(block[i]);
		ck_assert_uint_eq((uintptr_t)block[i] % _Alignof(max_align_t), 0);
		memset(block[i], (int)(i & 0xff), size[i]);
	}
	for (size_t i = 0; i < BLOCKS; i++) {
		size_t k = 0;
		while (k < size[i] && block[i][k] == (unsigned char)(i & 0xff))
			k++;
		ck_assert_msg(k == size[i], "block %zu byte %zu overwritten", i, k);
	}
	hg_arena_free(a);
	hg_arena_free(NULL);
}
END_TEST

START_TEST(diag_gnu_format)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_pos pos = { "game.hgn", 12, 7 };
	hg_diag *dg = hg_diag_add(&d, HG_ERROR, pos, "koc.sector-full",
				  "sector %d is full", 3);
	hg_diag_note(dg, "P1 may place in sectors %s", "1, 2");
	hg_pos nofile = { NULL, 0, 0 };
	hg_diag_add(&d, HG_UNVERIFIED, nofile, "x.y", "hidden");
	ck_assert_uint_eq(d.nerrors, 1);
	ck_assert_uint_eq(d.nunverified, 1);
	hg_buf out;
	hg_buf_init(&out);
	hg_diag_format(&d.v[0], &out, 0);
	hg_diag_format(&d.v[1], &out, 0);
	ck_assert_str_eq(out.data,
		"game.hgn:12:7: error: sector 3 is full [koc.sector-full]\n"
		"game.hgn:12:7: note: P1 may place in sectors 1, 2\n"
		"herald: unverified: hidden [x.y]\n");
	hg_buf_clear(&out);
	hg_diag_format(&d.v[0], &out, 1);
	ck_assert_ptr_nonnull(strstr(out.data, "\033[1;31merror:\033[0m"));

	hg_diags other;
	hg_diags_init(&other);
	hg_diag_add(&other, HG_WARNING, pos, "w", "w");
	hg_diags_move(&d, &other);
	ck_assert_uint_eq(d.n, 3);
	ck_assert_uint_eq(d.nwarnings, 1);
	ck_assert_uint_eq(other.n, 0);
	hg_buf_free(&out);
	hg_diags_free(&other);
	hg_diags_free(&d);
}
END_TEST

START_TEST(utf8_decoding)
{
	uint32_t cp;
	ck_assert_int_eq(hg_utf8_decode("\xc3\xad", 2, &cp), 2);
	ck_assert_uint_eq(cp, 0xED);
	ck_assert_int_eq(hg_utf8_decode("\xf0\x9f\x8f\xb0", 4, &cp), 4);
	ck_assert_uint_eq(cp, 0x1F3F0);
	ck_assert_int_eq(hg_utf8_decode("\xc0\xaf", 2, &cp), -1);	/* overlong */
	ck_assert_int_eq(hg_utf8_decode("\xed\xa0\x80", 3, &cp), -1);	/* surrogate */
	ck_assert_int_eq(hg_utf8_decode("\xe2\x82", 2, &cp), -1);	/* truncated */
	ck_assert_int_eq(hg_utf8_decode("\xf4\x90\x80\x80", 4, &cp), -1); /* > U+10FFFF */
	ck_assert_int_eq(hg_utf8_decode("\x80", 1, &cp), -1);
	ck_assert_uint_eq(hg_utf8_invalid_at("ab\xc3\xadz\xff", 6), 5);
	ck_assert_uint_eq(hg_utf8_invalid_at("Líder", 6), (size_t)-1);
	ck_assert_uint_eq(hg_utf8_chars("Líder", 6), 5);
	hg_buf b;
	hg_buf_init(&b);
	hg_utf8_put(&b, 0xED);
	hg_utf8_put(&b, 0x1F3F0);
	hg_utf8_put(&b, 'x');
	ck_assert_str_eq(b.data, "\xc3\xad\xf0\x9f\x8f\xb0x");
	hg_buf_free(&b);
}
END_TEST

static void assert_fold(const char *in, const char *want)
{
	char *f = hg_name_fold(in);
	ck_assert_str_eq(f, want);
	free(f);
}

START_TEST(name_fold_ignores_case_and_accents)
{
	assert_fold("Líder", "lider");
	assert_fold("ANTIOQUÍA", "antioquia");
	assert_fold("Campaña menor", "campana menor");
	assert_fold("Saladino y la 2ª Cruzada", "saladino y la 2a cruzada");
	assert_fold("Turcópolos", "turcopolos");
	assert_fold("Le\xcc\x81on", "leon");	/* e + combining acute */
	assert_fold("Łódź", "lodz");
	assert_fold("Straße", "strasse");
	assert_fold("\xff" "x", "\xff" "x");	/* invalid bytes are kept */
	ck_assert(hg_name_eq("Lider", "LÍDER"));
	ck_assert(!hg_name_eq("Lider", "Lidar"));
}
END_TEST

START_TEST(names_table)
{
	hg_names *t = hg_names_new();
	int clash = -1;
	ck_assert_int_eq(hg_names_add(t, "antioquia", 0, NULL), 0);
	ck_assert_int_eq(hg_names_add(t, "Antioch", 0, NULL), 0);
	ck_assert_int_eq(hg_names_add(t, "homs", 1, NULL), 0);
	ck_assert_int_eq(hg_names_add(t, "Antioquía", 0, NULL), 0); /* same value: fine */
	ck_assert_int_eq(hg_names_add(t, "HOMS", 2, &clash), -1);
	ck_assert_int_eq(clash, 1);
	ck_assert_int_eq(hg_names_find(t, "ANTIOCH"), 0);
	ck_assert_int_eq(hg_names_find(t, "Homs"), 1);
	ck_assert_int_eq(hg_names_find(t, "damasco"), -1);
	int v[2];
	ck_assert_uint_eq(hg_names_suggest(t, "hons", v, 2), 1);
	ck_assert_int_eq(v[0], 1);
	hg_names_free(t);
}
END_TEST

/* Many names: the hash index grows with the table and finds every one,
 * including names longer than the lookup's stack buffer. */
START_TEST(names_table_grows)
{
	hg_names *t = hg_names_new();
	char name[300];
	ck_assert_int_eq(hg_names_find(t, "anything"), -1);	/* empty */
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof name, "Card-%d", i);
		ck_assert_int_eq(hg_names_add(t, name, i, NULL), 0);
	}
	memset(name, 'x', 200);
	name[200] = '\0';
	ck_assert_int_eq(hg_names_add(t, name, 1000, NULL), 0);
	for (int i = 0; i < 1000; i++) {
		snprintf(name, sizeof name, "CARD-%d", i);
		ck_assert_int_eq(hg_names_find(t, name), i);
		snprintf(name, sizeof name, "card-%d-", i);
		ck_assert_int_eq(hg_names_find(t, name), -1);
	}
	memset(name, 'X', 200);
	name[200] = '\0';
	ck_assert_int_eq(hg_names_find(t, name), 1000);
	name[199] = '\0';
	ck_assert_int_eq(hg_names_find(t, name), -1);
	hg_names_free(t);
}
END_TEST

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	ck_assert_ptr_nonnull(f);
	static char buf[256];
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* A random name of `min` + below(spread) parts drawn from part[]. */
static void random_name(hg_prng *r, const char *const *part, size_t nparts, size_t min,
			uint32_t spread, hg_buf *b)
{
	size_t parts = min + hg_prng_below(r, spread);
	for (size_t k = 0; k < parts; k++)
		hg_buf_puts(b, part[hg_prng_below(r, (uint32_t)nparts)]);
}

/* The value of the added name that hg_name_eq() calls equal to q, or -1:
 * what hg_names_find must answer. */
static int value_by_name_eq(char *const *added, const int *value, size_t n, const char *q)
{
	for (size_t k = 0; k < n; k++)
		if (hg_name_eq(added[k], q))
			return value[k];
	return -1;
}

/* hg_names_find against the definition: the value of the name that
 * hg_name_eq() calls equal, over random names of ASCII, accented and
 * other letters, prefixes of one another, looked up in every case. */
START_TEST(names_find_agrees_with_name_eq)
{
	static const char *const part[] = {
		"a", "b", "t", "ro", "pa", "-", "1", "2", "í", "Í", "é", "ñ", "Ñ", "ç", "ö",
		"\xcc\x81", "ß", "ü", "'", ".", "#", "z", "Z", "ä", "\xe2\x80\x94",
	};
	hg_prng r;
	hg_prng_seed(&r, "names");
	hg_names *t = hg_names_new();
	char *added[300];
	int value[300];
	size_t n = 0;
	for (int i = 0; i < 300; i++) {
		hg_buf b;
		hg_buf_init(&b);
		random_name(&r, part, HG_ARRAY_LEN(part), 1, 6, &b);
		int clash;
		if (hg_names_add(t, b.data, i, &clash) == 0) {
			added[n] = hg_buf_steal(&b);
			value[n++] = i;
		} else {
			hg_buf_free(&b);
		}
		/* lookups between additions: a node's index by byte, made when
		 * it gets its fourth child, follows the children added later */
		size_t k = hg_prng_below(&r, (uint32_t)n);
		ck_assert_int_eq(hg_names_find(t, added[k]), value[k]);
	}
	ck_assert_uint_gt(n, 100);
	int hits = 0;
	for (int i = 0; i < 3000; i++) {
		hg_buf b;
		hg_buf_init(&b);
		random_name(&r, part, HG_ARRAY_LEN(part), 0, 7, &b);
		const char *q = b.data ? b.data : "";
		int want = value_by_name_eq(added, value, n, q);
		ck_assert_msg(hg_names_find(t, q) == want, "'%s': found %d, want %d", q,
			      hg_names_find(t, q), want);
		hits += want >= 0;
		hg_buf_free(&b);
	}
	ck_assert_int_gt(hits, 200);
	for (size_t k = 0; k < n; k++) {
		/* every name, its ASCII letters in capitals */
		char *up = hg_xstrdup(added[k]);
		for (char *c = up; *c; c++)
			if (*c >= 'a' && *c <= 'z')
				*c = (char)(*c - 32);
		ck_assert_int_eq(hg_names_find(t, up), value[k]);
		free(up);
		free(added[k]);
	}
	hg_names_free(t);
}
END_TEST

/* The trie keeps a run of bytes in one node: names that part, or end,
 * part-way along a long run (added in any order) are all found, and
 * nothing that ends inside a run, or leaves it, is. */
START_TEST(names_part_inside_long_runs)
{
	static const char *const part[] = {
		"abcdefghijklmnop", "abcdefgh", "abcdxyz", "a", "B", "é", "ABCDEFGHIJKLMNOQ",
	};
	hg_prng r;
	hg_prng_seed(&r, "long runs");
	hg_names *t = hg_names_new();
	char *added[200];
	int value[200];
	size_t n = 0;
	for (int i = 0; i < 200; i++) {
		hg_buf b;
		hg_buf_init(&b);
		random_name(&r, part, HG_ARRAY_LEN(part), 1, 4, &b);
		int clash;
		if (hg_names_add(t, b.data, i, &clash) == 0) {
			added[n] = hg_buf_steal(&b);
			value[n++] = i;
		} else {
			hg_buf_free(&b);
		}
	}
	for (size_t k = 0; k < n; k++)
		ck_assert_int_eq(hg_names_find(t, added[k]), value[k]);
	for (int i = 0; i < 2000; i++) {
		hg_buf b;
		hg_buf_init(&b);
		random_name(&r, part, HG_ARRAY_LEN(part), 1, 4, &b);
		/* cut anywhere, inside a run too */
		size_t cut = hg_prng_below(&r, (uint32_t)b.len + 1);
		char *q = hg_xstrndup(b.data, cut);
		int want = value_by_name_eq(added, value, n, q);
		ck_assert_msg(hg_names_find(t, q) == want, "'%s': found %d, want %d", q,
			      hg_names_find(t, q), want);
		free(q);
		hg_buf_free(&b);
	}
	for (size_t k = 0; k < n; k++)
		free(added[k]);
	hg_names_free(t);
}
END_TEST

START_TEST(atomic_write_keeps_mode_and_never_loses_data)
{
	char dir[] = "/tmp/herald-test-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char path[128];
	snprintf(path, sizeof path, "%s/game.hgn", dir);
	FILE *f = fopen(path, "w");
	fputs("old", f);
	fclose(f);
	chmod(path, 0640);
	ck_assert_int_eq(hg_write_file_atomic(path, "new contents", 12), 0);
	ck_assert_str_eq(slurp(path), "new contents");
	struct stat st;
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_uint_eq(st.st_mode & 0777, 0640);

	char bad[160];
	snprintf(bad, sizeof bad, "%s/missing-dir/game.hgn", dir);
	ck_assert_int_eq(hg_write_file_atomic(bad, "x", 1), -1);
	ck_assert_str_eq(slurp(path), "new contents");
	unlink(path);
	rmdir(dir);
}
END_TEST

/* Control characters from a record or a file name are shown as escapes. */
static char *visible(const char *s, size_t len, int keep_layout)
{
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_put_visible(&b, s, len, keep_layout);
	hg_buf_putn(&b, "", 0);
	return hg_buf_steal(&b);
}

START_TEST(visible_escapes_control_characters)
{
	static const struct {
		const char *in;
		int keep_layout;
		const char *want;
	} cases[] = {
		{ "plain text, accents: Líder", 0, "plain text, accents: Líder" },
		{ "\033]0;pwned\007", 0, "\\x1b]0;pwned\\x07" },
		{ "a\033[2Jb", 1, "a\\x1b[2Jb" },
		{ "tab\there\nline\r", 0, "tab\\x09here\\x0aline\\x0d" },
		{ "tab\there\nline\r", 1, "tab\there\nline\\x0d" },
		{ "del\177", 0, "del\\x7f" },
		{ "c1 \302\233 csi", 0, "c1 \\u009b csi" },	/* U+009B in UTF-8 */
		{ "nbsp \302\240 ok", 0, "nbsp \302\240 ok" },	/* U+00A0 is printable */
		{ "raw \233 byte", 0, "raw \\x9b byte" },		/* not UTF-8 */
		{ "cut \342\202", 0, "cut \\xe2\\x82" },
		{ "back\\slash", 0, "back\\slash" },
	};
	for (size_t i = 0; i < HG_ARRAY_LEN(cases); i++) {
		char *got = visible(cases[i].in, strlen(cases[i].in), cases[i].keep_layout);
		ck_assert_str_eq(got, cases[i].want);
		free(got);
	}
	/* NUL inside the text is escaped too */
	char *got = visible("a\0b", 3, 0);
	ck_assert_str_eq(got, "a\\x00b");
	free(got);
}
END_TEST

START_TEST(diag_text_escapes_file_message_and_notes)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_pos pos = { "bad\033]0;x\007.hgn", 2, 3 };
	hg_diag *dg = hg_diag_add(&d, HG_ERROR, pos, "hgn.test", "'%s' is odd", "\033[2J");
	hg_diag_note(dg, "note \302\233");
	hg_buf b;
	hg_buf_init(&b);
	hg_diag_format(dg, &b, 0);
	ck_assert_str_eq(b.data, "bad\\x1b]0;x\\x07.hgn:2:3: error: '\\x1b[2J' is odd [hgn.test]\n"
				 "bad\\x1b]0;x\\x07.hgn:2:3: note: note \\u009b\n");
	/* the diagnostic itself keeps the exact text (for the JSON formats) */
	ck_assert_str_eq(d.v[0].message, "'\033[2J' is odd");
	hg_buf_free(&b);
	hg_diags_free(&d);
}
END_TEST

/* A rewrite through a symbolic link replaces the file it leads to; the link
 * stays a link. */
START_TEST(atomic_write_goes_through_symbolic_links)
{
	char dir[] = "/tmp/herald-test-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(dir));
	char real[128], link1[128], link2[128], loop[128];
	snprintf(real, sizeof real, "%s/real.hgn", dir);
	snprintf(link1, sizeof link1, "%s/link1.hgn", dir);
	snprintf(link2, sizeof link2, "%s/link2.hgn", dir);
	snprintf(loop, sizeof loop, "%s/loop.hgn", dir);
	FILE *f = fopen(real, "w");
	fputs("old", f);
	fclose(f);
	chmod(real, 0600);
	ck_assert_int_eq(symlink("real.hgn", link1), 0);
	ck_assert_int_eq(symlink(link1, link2), 0);	/* absolute, to a link */
	ck_assert_int_eq(symlink("loop.hgn", loop), 0);
	char *target = hg_rewrite_target(link2);
	ck_assert_str_eq(target, real);
	free(target);
	ck_assert_int_eq(hg_write_file_atomic(link2, "new", 3), 0);
	ck_assert_str_eq(slurp(real), "new");
	struct stat st;
	ck_assert_int_eq(lstat(link1, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(lstat(link2, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	ck_assert_int_eq(stat(real, &st), 0);
	ck_assert_uint_eq(st.st_mode & 07777, 0600);
	/* a loop of links is an error, not a file written in its place */
	ck_assert_ptr_null(hg_rewrite_target(loop));
	ck_assert_int_eq(hg_write_file_atomic(loop, "x", 1), -1);
	ck_assert_int_eq(lstat(loop, &st), 0);
	ck_assert(S_ISLNK(st.st_mode));
	unlink(loop);
	unlink(link2);
	unlink(link1);
	unlink(real);
	rmdir(dir);
}
END_TEST

START_TEST(datapath_search_order)
{
	char a[] = "/tmp/herald-a-XXXXXX", b[] = "/tmp/herald-b-XXXXXX";
	ck_assert_ptr_nonnull(mkdtemp(a));
	ck_assert_ptr_nonnull(mkdtemp(b));
	char pa[64], pb[64];
	snprintf(pa, sizeof pa, "%s/x.yaml", a);
	snprintf(pb, sizeof pb, "%s/x.yaml", b);
	fclose(fopen(pa, "w"));
	fclose(fopen(pb, "w"));
	setenv("HERALD_DATA_PATH", b, 1);
	hg_datapath p;
	hg_datapath_init(&p, a);
	ck_assert_str_eq(p.dirs[0], a);
	ck_assert_str_eq(p.dirs[1], b);
	char *found = hg_datapath_find(&p, "x.yaml");
	ck_assert_str_eq(found, pa);
	free(found);
	ck_assert_ptr_null(hg_datapath_find(&p, "none.yaml"));
	hg_datapath_free(&p);
	hg_datapath_init(&p, NULL);
	found = hg_datapath_find(&p, "x.yaml");
	ck_assert_str_eq(found, pb);
	free(found);
	hg_datapath_free(&p);
	unlink(pa);
	unlink(pb);
	rmdir(a);
	rmdir(b);
}
END_TEST

START_TEST(record_players_and_tags)
{
	hg_game_record *g = hg_record_new("x.hgn");
	hg_record_set_tag(g, "Players", " Ana ;Ben;  Carla López ");
	char **names;
	size_t n = hg_record_players(g, &names);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(names[0], "Ana");
	ck_assert_str_eq(names[2], "Carla López");
	hg_strv_free(names, n);
	hg_record_free(g);

	g = hg_record_new(NULL);
	hg_record_set_tag(g, "Seat1", "Ana");
	hg_record_set_tag(g, "Seat2", "Ben");
	hg_record_set_tag(g, "Seat2", "Bea");
	ck_assert_uint_eq(g->ntags, 2);
	n = hg_record_players(g, &names);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(names[1], "Bea");
	hg_strv_free(names, n);
	ck_assert_ptr_null(hg_record_tag_value(g, "Players"));
	hg_record_free(g);
}
END_TEST

/* hg_record_nplayers counts what hg_record_players names, for every shape
 * of the tags: empty, blank and padded names, empty names between ';',
 * seat tags with a gap, and a Players tag beside seat tags. */
START_TEST(record_nplayers_counts_what_players_names)
{
	static const char *const players[] = {
		"", " ", "\t \t", "Ana", " Ana ", ";", " ; ", "Ana;Ben", "Ana;;Ben", ";Ana",
		"Ana;", "a; b ;c;d", " ;\t", NULL,
	};
	for (size_t i = 0; i < sizeof players / sizeof players[0]; i++)
		for (unsigned seats = 0; seats < 4; seats++)
			for (int gap = 0; gap < 2; gap++) {
				hg_game_record *g = hg_record_new("x.hgn");
				if (players[i])
					hg_record_set_tag(g, "Players", players[i]);
				for (unsigned k = 1; k <= seats; k++) {
					char name[16];
					snprintf(name, sizeof name, "Seat%u", k + (gap && k > 1));
					hg_record_set_tag(g, name, "x");
				}
				char **names;
				size_t n = hg_record_players(g, &names);
				ck_assert_msg(hg_record_nplayers(g) == n,
					      "Players '%s', %u seat tags%s: %zu, names %zu",
					      players[i] ? players[i] : "(none)", seats,
					      gap ? " from Seat1 then Seat3" : "",
					      hg_record_nplayers(g), n);
				hg_strv_free(names, n);
				hg_record_free(g);
			}
}
END_TEST

/* The same on many random tags of names, separators and blanks, and
 * without the tag (Seat tags). */
START_TEST(record_nplayers_agrees_on_random_tags)
{
	static const char *const pieces[] = { ";", " ", "\t", "Ana", "B", " ;", "; ", "x y" };
	hg_prng r;
	hg_prng_seed(&r, "player-count");
	int counts[8] = { 0 };
	for (int k = 0; k < 3000; k++) {
		hg_game_record *rec = hg_record_new("test.hgn");
		hg_buf b;
		hg_buf_init(&b);
		int n = (int)hg_prng_below(&r, 7);
		for (int i = 0; i < n; i++)
			hg_buf_puts(&b, pieces[hg_prng_below(&r, (uint32_t)HG_ARRAY_LEN(pieces))]);
		if (k % 10 == 9) {	/* no Players tag: the Seat tags */
			for (int i = 0; i < n; i++) {
				char tag[16];
				snprintf(tag, sizeof tag, "Seat%d", i + 1);
				hg_record_set_tag(rec, tag, b.len ? b.data : "");
			}
		} else {
			hg_record_set_tag(rec, "Players", b.len ? b.data : "");
		}
		char **names = NULL;
		size_t want = hg_record_players(rec, &names);
		hg_strv_free(names, want);
		ck_assert_msg(hg_record_nplayers(rec) == want, "'%s': %zu names",
			      b.len ? b.data : "", want);
		counts[want < 7 ? want : 7]++;
		hg_buf_free(&b);
		hg_record_free(rec);
	}
	for (int i = 0; i < 4; i++)	/* none, one and more were all tried */
		ck_assert_int_gt(counts[i], 50);
}
END_TEST

/* ------------------------------------------------------------ patterns */

/* An action's shape, with named groups that may or may not take part. */
#define TEST_RE "(?:draw|draws)(?: (?<count>\\d+))?(?<items>(?: [a-z0-9-]+)*)"

static const char *const pattern_subjects[] = {
	"draw", "draw 3", "draw 3 tropa-1 tropa-2", "Draws tropa-1", "DRAW 12 lider",
	"draw 3 4", "drew 3", "draw tropa_1", "", "draw  tropa-1", "draw 3 tropa-1 ",
};
#define NSUBJECTS HG_ARRAY_LEN(pattern_subjects)

/* What one match says: whether it matched, and where each group is. */
typedef struct match_seen {
	int matched;
	size_t start[3], end[3];
} match_seen;

static match_seen match_once(const hg_pattern *p, const char *subject)
{
	hg_match m;
	match_seen seen;
	memset(&seen, 0xff, sizeof seen);
	seen.matched = hg_pattern_match(p, subject, &m);
	for (int g = 0; seen.matched && g < 3; g++) {
		seen.start[g] = m.start[g];
		seen.end[g] = m.end[g];
	}
	return seen;
}

/* A pattern is JIT-compiled only after a few dozen matches (start-up does
 * not wait for it), and matches the same before and after. */
START_TEST(pattern_matches_alike_before_and_after_jit)
{
	hg_pattern *p = hg_pattern_new(TEST_RE);
	match_seen first[NSUBJECTS];
	for (size_t i = 0; i < NSUBJECTS; i++)
		first[i] = match_once(p, pattern_subjects[i]);
	ck_assert(first[2].matched && first[4].matched && !first[6].matched);
	ck_assert_uint_eq(first[2].start[1], 5);	/* count: "3" */
	ck_assert_uint_eq(first[2].end[1], 6);
	ck_assert(first[0].start[1] == (size_t)-1);	/* no count */
	ck_assert(!hg_pattern_jit_ready(p));
	for (int round = 0; round < 20; round++)
		for (size_t i = 0; i < NSUBJECTS; i++) {
			match_seen again = match_once(p, pattern_subjects[i]);
			ck_assert_msg(memcmp(&again, &first[i], sizeof again) == 0,
				      "'%s' in round %d", pattern_subjects[i], round);
		}
	int jit = 0;
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	ck_assert_int_eq(hg_pattern_jit_ready(p), jit != 0);
	hg_pattern_free(p);
}
END_TEST

typedef struct matching_thread {
	const hg_pattern *p;
	const match_seen *want;
	int wrong;
} matching_thread;

static void *match_many(void *arg)
{
	matching_thread *t = arg;
	for (int k = 0; k < 2000; k++) {
		size_t i = (size_t)k % NSUBJECTS;
		match_seen seen = match_once(t->p, pattern_subjects[i]);
		if (memcmp(&seen, &t->want[i], sizeof seen) != 0)
			t->wrong++;
	}
	return NULL;
}

/* Threads sharing a pattern while one of them makes its JIT copy all
 * match as one alone would (the sanitizer builds run this too). */
START_TEST(pattern_is_shared_by_threads_across_its_jit)
{
	hg_pattern *ref = hg_pattern_new(TEST_RE), *p = hg_pattern_new(TEST_RE);
	match_seen want[NSUBJECTS];
	for (size_t i = 0; i < NSUBJECTS; i++)
		want[i] = match_once(ref, pattern_subjects[i]);
	matching_thread t[4];
	pthread_t id[4];
	for (int i = 0; i < 4; i++) {
		t[i] = (matching_thread){ p, want, 0 };
		ck_assert_int_eq(pthread_create(&id[i], NULL, match_many, &t[i]), 0);
	}
	for (int i = 0; i < 4; i++) {
		pthread_join(id[i], NULL);
		ck_assert_int_eq(t[i].wrong, 0);
	}
	int jit = 0;
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	ck_assert_int_eq(hg_pattern_jit_ready(p), jit != 0);
	hg_pattern_free(p);
	hg_pattern_free(ref);
}
END_TEST

/* The tag set finds every name added, with its index, and no other;
 * a repeat is refused with the first index; clearing empties it. */
START_TEST(tagset_finds_what_was_added)
{
	enum { N = 5000 };
	static char names[N][16];
	hg_tagset s;
	hg_tagset_init(&s);
	ck_assert_uint_eq(hg_tagset_find(&s, "Game"), HG_TAGSET_NONE);
	for (size_t i = 0; i < N; i++) {
		snprintf(names[i], sizeof names[i], "T%zu", i);
		ck_assert_uint_eq(hg_tagset_add(&s, names[i], i), HG_TAGSET_NONE);
	}
	ck_assert_uint_eq(s.n, N);
	for (size_t i = 0; i < N; i++) {
		char again[16];
		snprintf(again, sizeof again, "T%zu", i);	/* another copy */
		ck_assert_uint_eq(hg_tagset_find(&s, again), i);
		ck_assert_uint_eq(hg_tagset_add(&s, again, N + i), i);
	}
	ck_assert_uint_eq(s.n, N);
	ck_assert_uint_eq(hg_tagset_find(&s, "T"), HG_TAGSET_NONE);
	ck_assert_uint_eq(hg_tagset_find(&s, "T5000"), HG_TAGSET_NONE);
	ck_assert_uint_eq(hg_tagset_find(&s, "t1"), HG_TAGSET_NONE);	/* case counts */
	ck_assert_uint_eq(hg_tagset_find(&s, ""), HG_TAGSET_NONE);
	hg_tagset_clear(&s);
	ck_assert_uint_eq(s.n, 0);
	ck_assert_uint_eq(hg_tagset_find(&s, "T1"), HG_TAGSET_NONE);
	ck_assert_uint_eq(hg_tagset_add(&s, names[1], 7), HG_TAGSET_NONE);
	ck_assert_uint_eq(hg_tagset_find(&s, "T1"), 7);
	hg_tagset_free(&s);
}
END_TEST

/* The spare action block (action-cache.h): a block given back is the next
 * one taken, a second one given back is freed, and the cache lives while a
 * block taken from it does, after its owner's reference is gone. */
START_TEST(action_cache_keeps_one_spare)
{
	hg_action_cache *c = hg_action_cache_new(64);
	ck_assert_uint_eq(c->refs, 1);
	unsigned char *a = hg_action_cache_take(c);
	unsigned char *b = hg_action_cache_take(c);
	ck_assert_ptr_ne(a, b);
	ck_assert_uint_eq(c->refs, 3);
	memset(a, 0xa5, 64);	/* the whole block is the caller's */
	memset(b, 0x5a, 64);
	hg_action_cache_give(c, a);
	ck_assert_ptr_eq(c->spare, a);
	hg_action_cache_give(c, b);	/* the spare is taken: b is freed */
	ck_assert_ptr_eq(c->spare, a);
	ck_assert_uint_eq(c->refs, 1);
	ck_assert_ptr_eq(hg_action_cache_take(c), a);
	ck_assert_ptr_null(c->spare);
	hg_action_cache *clone = hg_action_cache_ref(c);
	ck_assert_ptr_eq(clone, c);
	hg_action_cache_unref(clone);
	hg_action_cache_unref(c);	/* the owner goes; the block holds the cache */
	ck_assert_uint_eq(c->refs, 1);
	hg_action_cache_give(c, a);	/* frees the cache and a (the sanitizers watch) */
	hg_action_cache_unref(NULL);
}
END_TEST

/* Blocks of more than the cache's size (hg_action_cache_take_size): the
 * spare serves a take it is large enough for and no other; a larger take
 * frees it and grows the size of the blocks made after, so that a plain
 * take gets as much. */
START_TEST(action_cache_grows_for_a_larger_take)
{
	hg_action_cache *c = hg_action_cache_new(64);
	unsigned char *a = hg_action_cache_take(c);
	ck_assert_uint_eq(hg_action_block_size(a), 64);
	ck_assert_uint_eq((uintptr_t)a % _Alignof(max_align_t), 0);
	hg_action_cache_give(c, a);
	ck_assert_ptr_eq(hg_action_cache_take_size(c, 10), a);	/* large enough */
	hg_action_cache_give(c, a);
	unsigned char *b = hg_action_cache_take_size(c, 100);	/* a is too small */
	ck_assert_ptr_null(c->spare);
	ck_assert_uint_ge(hg_action_block_size(b), 100);
	ck_assert_uint_eq(c->size, 128);	/* doubled: 100 is less than twice 64 */
	memset(b, 0xa5, 100);
	unsigned char *d = hg_action_cache_take_size(c, 1000);	/* more than twice */
	ck_assert_uint_eq(hg_action_block_size(d), 1000);
	ck_assert_uint_eq(c->size, 1000);
	memset(d, 0x5a, 1000);
	hg_action_cache_give(c, b);
	hg_action_cache_give(c, d);	/* the spare is taken: d is freed */
	ck_assert_ptr_eq(c->spare, b);
	unsigned char *e = hg_action_cache_take(c);	/* b is smaller than c->size now */
	ck_assert_ptr_ne(e, b);
	ck_assert_uint_eq(hg_action_block_size(e), 1000);
	ck_assert_ptr_null(c->spare);
	ck_assert_uint_eq(c->refs, 2);
	hg_action_cache_unref(c);
	hg_action_cache_give(c, e);	/* the last reference */
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("util");
	tcase_add_test(tc, buf_grows_and_formats);
	tcase_add_test(tc, buf_join_separates_items);
	tcase_add_test(tc, buf_printf_writes_what_snprintf_writes);
	tcase_add_test(tc, action_cache_keeps_one_spare);
	tcase_add_test(tc, action_cache_grows_for_a_larger_take);
	tcase_add_test(tc, arena_blocks_are_aligned_and_distinct);
	tcase_add_test(tc, diag_gnu_format);
	tcase_add_test(tc, utf8_decoding);
	tcase_add_test(tc, name_fold_ignores_case_and_accents);
	tcase_add_test(tc, names_table);
	tcase_add_test(tc, names_table_grows);
	tcase_add_test(tc, names_find_agrees_with_name_eq);
	tcase_add_test(tc, names_part_inside_long_runs);
	tcase_add_test(tc, atomic_write_keeps_mode_and_never_loses_data);
	tcase_add_test(tc, atomic_write_goes_through_symbolic_links);
	tcase_add_test(tc, visible_escapes_control_characters);
	tcase_add_test(tc, diag_text_escapes_file_message_and_notes);
	tcase_add_test(tc, datapath_search_order);
	tcase_add_test(tc, record_players_and_tags);
	tcase_add_test(tc, record_nplayers_counts_what_players_names);
	tcase_add_test(tc, record_nplayers_agrees_on_random_tags);
	tcase_add_test(tc, pattern_matches_alike_before_and_after_jit);
	tcase_add_test(tc, pattern_is_shared_by_threads_across_its_jit);
	tcase_add_test(tc, tagset_finds_what_was_added);
	suite_add_tcase(s, tc);
	return s;
}
