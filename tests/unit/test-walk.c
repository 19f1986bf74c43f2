/* test-walk.c - a directory operand's files are opened from the walked
 * directory down (src/cli/inputs.c): a file, or a directory on its way,
 * swapped for a symbolic link or a FIFO between the walk and the read is
 * refused, never followed or read (herald-check(1), HOSTILE INPUT). */
#include "unit.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "herald.h"
#include "cli/cli.h"

static char top[4096];		/* a fresh directory for each test */
static char tree[4200], outside[4200];

static void put_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	ck_assert_int_eq(fclose(fp), 0);
}

static char *path_of(const char *dir, const char *name)
{
	static char buf[4][8400];
	static int next;
	char *b = buf[next++ % 4];
	snprintf(b, sizeof buf[0], "%s/%s", dir, name);
	return b;
}

/* top/tree/{a.hgn, sub/b.hgn} and top/outside/{a.hgn, b.hgn}, the
 * outside ones holding a secret. */
static void make_tree(void)
{
	const char *tmp = getenv("TMPDIR");
	snprintf(top, sizeof top, "%s/herald-walk-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(top));
	snprintf(tree, sizeof tree, "%s/tree", top);
	snprintf(outside, sizeof outside, "%s/outside", top);
	ck_assert_int_eq(mkdir(tree, 0700), 0);
	ck_assert_int_eq(mkdir(path_of(tree, "sub"), 0700), 0);
	ck_assert_int_eq(mkdir(outside, 0700), 0);
	put_file(path_of(tree, "a.hgn"), "inside a\n");
	put_file(path_of(tree, "sub/b.hgn"), "inside b\n");
	put_file(path_of(outside, "a.hgn"), "SECRET\n");
	put_file(path_of(outside, "b.hgn"), "SECRET\n");
}

static void remove_tree(void)
{
	char cmd[8500];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", top);
	ck_assert_int_eq(system(cmd), 0);
}

/* Walks the tree: its two files, in order. */
static void walk_tree(cli_inputs *in)
{
	hg_diags d;
	hg_diags_init(&d);
	char *operands[] = { tree };
	memset(in, 0, sizeof *in);
	ck_assert_uint_eq(cli_inputs_expand(in, operands, 1, &d), 0);
	ck_assert_uint_eq(d.n, 0);
	ck_assert_uint_eq(in->n, 2);
	ck_assert_str_eq(in->paths[0], path_of(tree, "a.hgn"));
	ck_assert_str_eq(in->paths[1], path_of(tree, "sub/b.hgn"));
	hg_diags_free(&d);
}

/* What input i reads, or NULL when it cannot be opened (*diag: the
 * message said). */
static char *read_input(const cli_inputs *in, size_t i, char *diag, size_t size)
{
	static char text[256];
	hg_diags d;
	hg_diags_init(&d);
	int fd = cli_input_open(in, i, &d);
	diag[0] = 0;
	if (fd < 0) {
		ck_assert_uint_eq(d.n, 1);
		ck_assert_str_eq(d.v[0].code, "hgn.io-error");
		snprintf(diag, size, "%s", d.v[0].message);
		hg_diags_free(&d);
		return NULL;
	}
	ssize_t got = read(fd, text, sizeof text - 1);
	ck_assert_int_ge(got, 0);
	text[got] = 0;
	close(fd);
	hg_diags_free(&d);
	return text;
}

START_TEST(unswapped_files_are_read)
{
	make_tree();
	cli_inputs in;
	walk_tree(&in);
	char diag[512];
	ck_assert_str_eq(read_input(&in, 0, diag, sizeof diag), "inside a\n");
	ck_assert_str_eq(read_input(&in, 1, diag, sizeof diag), "inside b\n");
	cli_inputs_free(&in);
	remove_tree();
}
END_TEST

START_TEST(file_swapped_for_a_link_is_refused)
{
	make_tree();
	cli_inputs in;
	walk_tree(&in);
	ck_assert_int_eq(unlink(path_of(tree, "a.hgn")), 0);
	ck_assert_int_eq(symlink(path_of(outside, "a.hgn"), path_of(tree, "a.hgn")), 0);
	char diag[512];
	ck_assert_ptr_null(read_input(&in, 0, diag, sizeof diag));
	ck_assert_ptr_nonnull(strstr(diag, "symbolic link"));
	ck_assert_ptr_null(strstr(diag, "SECRET"));
	/* the source opener refuses it too, and reads nothing */
	cli_source src;
	hg_diags d;
	hg_diags_init(&d);
	ck_assert_int_eq(cli_source_open(&src, &in, 0, CLI_IN_HGN, 1, &d), -1);
	cli_source_close(&src);
	ck_assert_uint_eq(d.n, 1);
	hg_diags_free(&d);
	cli_inputs_free(&in);
	remove_tree();
}
END_TEST

START_TEST(directory_swapped_for_a_link_is_refused)
{
	make_tree();
	cli_inputs in;
	walk_tree(&in);
	char sub[8400];
	snprintf(sub, sizeof sub, "%s", path_of(tree, "sub"));
	ck_assert_int_eq(rename(sub, path_of(top, "old-sub")), 0);
	ck_assert_int_eq(symlink(outside, sub), 0);
	char diag[512];
	ck_assert_ptr_null(read_input(&in, 1, diag, sizeof diag));
	ck_assert_ptr_null(strstr(diag, "SECRET"));
	cli_inputs_free(&in);
	remove_tree();
}
END_TEST

/* A walked file is rewritten (fmt --in-place) from its directory as
 * opened from the walked tree down: the directory of sub/b.hgn, while it
 * is still the walked one, and no directory at all once a link to the
 * outside has taken its place, so that nothing is written there. */
START_TEST(rewrite_directory_opened_beneath)
{
	make_tree();
	cli_inputs in;
	walk_tree(&in);
	const char *name = NULL;
	int dir = cli_input_dir_open(&in, 1, &name);
	ck_assert_int_ge(dir, 0);
	ck_assert_str_eq(name, "b.hgn");
	struct stat st;
	ck_assert_int_eq(fstatat(dir, "b.hgn", &st, AT_SYMLINK_NOFOLLOW), 0);
	ck_assert(S_ISREG(st.st_mode));
	close(dir);
	dir = cli_input_dir_open(&in, 0, &name);
	ck_assert_int_ge(dir, 0);
	ck_assert_str_eq(name, "a.hgn");
	close(dir);

	char sub[8400];
	snprintf(sub, sizeof sub, "%s", path_of(tree, "sub"));
	ck_assert_int_eq(rename(sub, path_of(top, "old-sub")), 0);
	ck_assert_int_eq(symlink(outside, sub), 0);
	errno = 0;
	ck_assert_int_eq(cli_input_dir_open(&in, 1, &name), -1);
	ck_assert(errno == ELOOP || errno == ENOTDIR);
	cli_inputs_free(&in);

	/* an operand is not walked: the caller rewrites it by its path */
	char *operands[] = { path_of(tree, "a.hgn") };
	hg_diags d;
	hg_diags_init(&d);
	memset(&in, 0, sizeof in);
	ck_assert_uint_eq(cli_inputs_expand(&in, operands, 1, &d), 0);
	errno = EINVAL;
	ck_assert_int_eq(cli_input_dir_open(&in, 0, &name), -1);
	ck_assert_int_eq(errno, 0);
	cli_inputs_free(&in);
	hg_diags_free(&d);
	remove_tree();
}
END_TEST

START_TEST(file_swapped_for_a_fifo_is_refused_at_once)
{
	make_tree();
	cli_inputs in;
	walk_tree(&in);
	ck_assert_int_eq(unlink(path_of(tree, "a.hgn")), 0);
	if (mkfifo(path_of(tree, "a.hgn"), 0600) != 0) {
		cli_inputs_free(&in);
		remove_tree();
		return;	/* no FIFOs here: nothing to test */
	}
	char diag[512];
	ck_assert_ptr_null(read_input(&in, 0, diag, sizeof diag));	/* no hang */
	ck_assert_ptr_nonnull(strstr(diag, "not a regular file"));
	cli_inputs_free(&in);
	remove_tree();
}
END_TEST

/* The operand directory itself was opened when it was walked: moving it
 * away and putting a link in its place changes nothing that is read. */
START_TEST(operand_swapped_after_the_walk_reads_the_walked_tree)
{
	make_tree();
	cli_inputs in;
	walk_tree(&in);
	ck_assert_int_eq(rename(tree, path_of(top, "old-tree")), 0);
	ck_assert_int_eq(symlink(outside, tree), 0);
	char diag[512];
	ck_assert_str_eq(read_input(&in, 0, diag, sizeof diag), "inside a\n");
	cli_inputs_free(&in);
	remove_tree();
}
END_TEST

/* A link named as an operand is followed, as cat would. */
START_TEST(named_link_is_followed)
{
	make_tree();
	char link[8400];
	snprintf(link, sizeof link, "%s", path_of(top, "named.hgn"));
	ck_assert_int_eq(symlink(path_of(tree, "a.hgn"), link), 0);
	cli_inputs in;
	memset(&in, 0, sizeof in);
	hg_diags d;
	hg_diags_init(&d);
	char *operands[] = { link };
	ck_assert_uint_eq(cli_inputs_expand(&in, operands, 1, &d), 0);
	char diag[512];
	ck_assert_str_eq(read_input(&in, 0, diag, sizeof diag), "inside a\n");
	hg_diags_free(&d);
	cli_inputs_free(&in);
	remove_tree();
}
END_TEST

Suite *unit_suite(void)
{
	Suite *s = suite_create("walk");
	TCase *tc = tcase_create("walk");
	tcase_add_test(tc, unswapped_files_are_read);
	tcase_add_test(tc, file_swapped_for_a_link_is_refused);
	tcase_add_test(tc, directory_swapped_for_a_link_is_refused);
	tcase_add_test(tc, rewrite_directory_opened_beneath);
	tcase_add_test(tc, file_swapped_for_a_fifo_is_refused_at_once);
	tcase_add_test(tc, operand_swapped_after_the_walk_reads_the_walked_tree);
	tcase_add_test(tc, named_link_is_followed);
	suite_add_tcase(s, tc);
	return s;
}
