/* test-judge.c - the e-mail judge's mail layer (src/judge/): the commands
 * of a body, the game id of a subject, reading messages with GMime
 * (charsets, transfer encodings, multipart, nesting, lengths), the
 * messages the judge writes and the Maildir protocol, the game
 * directory's log. */
#include "unit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "herald.h"
#include "judge.h"
#include "gamedir.h"

/* "a/b", malloc'd. */
static char *join(const char *a, const char *b)
{
	hg_buf p;
	hg_buf_init(&p);
	hg_buf_printf(&p, "%s/%s", a, b);
	return hg_buf_steal(&p);
}

/* A fresh directory for one test. */
static char *temp_dir(void)
{
	char *dir = hg_xstrdup("/tmp/herald-judge-unit.XXXXXX");
	ck_assert_ptr_nonnull(mkdtemp(dir));
	return dir;
}

static void remove_tree(const char *dir)
{
	hg_buf cmd;
	hg_buf_init(&cmd);
	hg_buf_printf(&cmd, "rm -rf '%s'", dir);
	ck_assert_int_eq(system(cmd.data), 0);
	hg_buf_free(&cmd);
}

/* The message text written to dir/msg, read back by judge_mail_read. */
static void read_message(const char *dir, const char *text, judge_mail *m)
{
	char *path = join(dir, "msg");
	FILE *fp = fopen(path, "wb");
	ck_assert_ptr_nonnull(fp);
	fputs(text, fp);
	fclose(fp);
	judge_mail_read(path, 0, m);
	free(path);
}

START_TEST(body_skips_quotes_and_signature)
{
	char **lines;
	size_t n = judge_body_commands("  place c01 3  \r\n\n> quoted line\n"
				       "view\n-- \nAna\nplace c02 1\n", &lines);
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(lines[0], "place c01 3");
	ck_assert_str_eq(lines[1], "view");
	hg_strv_free(lines, n);
}
END_TEST

START_TEST(body_stops_at_a_quoted_message)
{
	static const char *const bodies[] = {
		"resign\nOn Mon, 1 Jan 2026, herald judge <j@x> wrote:\nplace c01 1\n",
		"resign\nEl lun, 1 ene 2026, herald judge escribi\xc3\xb3:\nplace c01 1\n",
		"resign\n-----Original Message-----\nplace c01 1\n",
		"resign\n--\nplace c01 1\n",
	};
	for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
		char **lines;
		size_t n = judge_body_commands(bodies[i], &lines);
		ck_assert_uint_eq(n, 1);
		ck_assert_str_eq(lines[0], "resign");
		hg_strv_free(lines, n);
	}
}
END_TEST

START_TEST(body_bounds_lines_and_count)
{
	hg_buf b;
	hg_buf_init(&b);
	for (int i = 0; i < JUDGE_MAX_COMMANDS + 10; i++)
		hg_buf_puts(&b, "view\n");
	for (int i = 0; i < 2 * JUDGE_MAX_LINE; i++)
		hg_buf_puts(&b, "\xc3\xb1");	/* two bytes a character */
	char **lines;
	size_t n = judge_body_commands(b.data, &lines);
	ck_assert_uint_eq(n, JUDGE_MAX_COMMANDS);
	hg_strv_free(lines, n);
	/* a long line is cut at a character's start */
	n = judge_body_commands(b.data + 5 * (JUDGE_MAX_COMMANDS + 10), &lines);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_le(strlen(lines[0]), JUDGE_MAX_LINE);
	ck_assert_uint_eq(strlen(lines[0]) % 2, 0);
	ck_assert_uint_eq(hg_utf8_invalid_at(lines[0], strlen(lines[0])), (size_t)-1);
	hg_strv_free(lines, n);
	/* control characters become spaces */
	n = judge_body_commands("place\tc01\x01" "3\n", &lines);
	ck_assert_str_eq(lines[0], "place c01 3");
	hg_strv_free(lines, n);
	hg_buf_free(&b);
}
END_TEST

START_TEST(subject_game_id)
{
	char *id = judge_subject_game("Re: [ck-1] my move");
	ck_assert_str_eq(id, "ck-1");
	free(id);
	id = judge_subject_game("[Club] Re: [encrucijada-12]");
	ck_assert_str_eq(id, "encrucijada-12");
	free(id);
	ck_assert_ptr_null(judge_subject_game("no id"));
	ck_assert_ptr_null(judge_subject_game("[../etc] [-x] [a b]"));
	ck_assert_ptr_null(judge_subject_game("[aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa]"));
	ck_assert_int_eq(judge_game_id_ok("failed"), 1);
	ck_assert_int_eq(judge_game_id_ok("a/b"), 0);
}
END_TEST

START_TEST(mail_latin1_quoted_printable)
{
	char *dir = temp_dir();
	judge_mail m;
	read_message(dir,
		     "From: =?iso-8859-1?q?Jos=E9?= <JOSE@Example.ORG>\n"
		     "Subject: =?iso-8859-1?q?Re:_[ck-1]_caballer=EDa?=\n"
		     "Message-ID: <a1@x>\n"
		     "References: <r0@x>\n"
		     "MIME-Version: 1.0\n"
		     "Content-Type: text/plain; charset=iso-8859-1\n"
		     "Content-Transfer-Encoding: quoted-printable\n\n"
		     "muevo la caballer=EDa\n", &m);
	ck_assert_int_eq(m.problem, JUDGE_MAIL_OK);
	ck_assert_str_eq(m.from, "jose@example.org");
	ck_assert_str_eq(m.subject, "Re: [ck-1] caballer\xc3\xad" "a");
	ck_assert_str_eq(m.message_id, "a1@x");
	ck_assert_str_eq(m.references, "<r0@x>");
	ck_assert_str_eq(m.text, "muevo la caballer\xc3\xad" "a\n");
	ck_assert_int_eq(m.automatic, 0);
	judge_mail_free(&m);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(mail_base64_in_multipart)
{
	char *dir = temp_dir();
	judge_mail m;
	/* "resign ñ\n" in base64, after an HTML alternative */
	read_message(dir,
		     "From: a@b.example\nSubject: x\nMIME-Version: 1.0\n"
		     "Content-Type: multipart/alternative; boundary=\"B\"\n\n"
		     "--B\nContent-Type: text/html\n\n<p>no</p>\n"
		     "--B\nContent-Type: text/plain; charset=utf-8\n"
		     "Content-Transfer-Encoding: base64\n\ncmVzaWduIMOxCg==\n"
		     "--B--\n", &m);
	ck_assert_int_eq(m.problem, JUDGE_MAIL_OK);
	ck_assert_str_eq(m.text, "resign \xc3\xb1\n");
	judge_mail_free(&m);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(mail_problems)
{
	char *dir = temp_dir();
	judge_mail m;
	read_message(dir, "From: a@b.example\nSubject: x\nMIME-Version: 1.0\n"
		     "Content-Type: text/html\n\n<p>view</p>\n", &m);
	ck_assert_int_eq(m.problem, JUDGE_MAIL_NO_TEXT);
	judge_mail_free(&m);
	read_message(dir, "From: a@b.example\nSubject: x\nMIME-Version: 1.0\n"
		     "Content-Type: text/plain; charset=x-no-such-charset\n"
		     "Content-Transfer-Encoding: 8bit\n\nvista \xff\n", &m);
	ck_assert_int_eq(m.problem, JUDGE_MAIL_BAD_CHARSET);
	ck_assert_ptr_nonnull(strstr(m.detail, "x-no-such-charset"));
	judge_mail_free(&m);
	/* a text/plain attachment is not the sender's commands */
	read_message(dir, "From: a@b.example\nSubject: x\nMIME-Version: 1.0\n"
		     "Content-Type: text/plain\nContent-Disposition: attachment; filename=a.txt\n\n"
		     "resign\n", &m);
	ck_assert_int_eq(m.problem, JUDGE_MAIL_NO_TEXT);
	judge_mail_free(&m);
	/* an auto-reply is marked, never to be answered */
	read_message(dir, "From: a@b.example\nSubject: x\nAuto-Submitted: auto-replied\n\nhi\n", &m);
	ck_assert_int_eq(m.automatic, 1);
	judge_mail_free(&m);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(mail_nesting_limit)
{
	char *dir = temp_dir();
	for (int depth = JUDGE_MAX_DEPTH; depth <= JUDGE_MAX_DEPTH + 1; depth++) {
		hg_buf b;
		hg_buf_init(&b);
		hg_buf_puts(&b, "From: a@b.example\nSubject: x\nMIME-Version: 1.0\n");
		for (int i = 0; i < depth; i++)
			hg_buf_printf(&b, "Content-Type: multipart/mixed; boundary=\"b%d\"\n\n--b%d\n", i, i);
		hg_buf_puts(&b, "Content-Type: text/plain\n\nview\n");
		for (int i = depth - 1; i >= 0; i--)
			hg_buf_printf(&b, "--b%d--\n", i);
		judge_mail m;
		read_message(dir, b.data, &m);
		ck_assert_int_eq(m.problem, depth > JUDGE_MAX_DEPTH ? JUDGE_MAIL_TOO_DEEP : JUDGE_MAIL_OK);
		judge_mail_free(&m);
		hg_buf_free(&b);
	}
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(mail_long_text_part_skipped)
{
	char *dir = temp_dir();
	hg_buf b;
	hg_buf_init(&b);
	hg_buf_puts(&b, "From: a@b.example\nSubject: x\nMIME-Version: 1.0\n"
		    "Content-Type: multipart/mixed; boundary=\"B\"\n\n--B\nContent-Type: text/plain\n\n");
	for (size_t i = 0; i <= JUDGE_MAX_TEXT / 8; i++)
		hg_buf_puts(&b, "xxxxxxx\n");
	hg_buf_puts(&b, "--B\nContent-Type: text/plain\n\nview\n--B--\n");
	judge_mail m;
	read_message(dir, b.data, &m);
	ck_assert_int_eq(m.problem, JUDGE_MAIL_OK);
	ck_assert_str_eq(m.text, "view");
	judge_mail_free(&m);
	hg_buf_free(&b);
	remove_tree(dir);
	free(dir);
}
END_TEST

/* The path of the one file of maildir/new. */
static char *only_delivery(const char *maildir)
{
	char *newdir = join(maildir, "new");
	DIR *d = opendir(newdir);
	ck_assert_ptr_nonnull(d);
	struct dirent *e;
	char *found = NULL;
	int count = 0;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.') {
			count++;
			free(found);
			found = join(newdir, e->d_name);
		}
	closedir(d);
	free(newdir);
	ck_assert_int_eq(count, 1);
	return found;
}

START_TEST(outgoing_message_round_trip)
{
	char *dir = temp_dir();
	char *maildir = join(dir, "out");
	judge_outbox box = { .maildir = maildir, .from = "judge@club.example", .now = 1800000000 };
	judge_message msg = {
		.to = "ana@club.example", .subject = "[ck-1] caballer\xc3\xad" "a",
		.body = "Your view, as P1:\nhand: c01\n", .in_reply_to = "a1@x", .references = "<r0@x>",
		.attachment = "[Game \"x\"]\n\n*\n", .attachment_name = "ck-1-P1.hgn",
	};
	ck_assert_int_eq(judge_send(&box, &msg), 0);
	ck_assert_uint_eq(box.sent, 1);
	char *path = only_delivery(maildir);
	judge_mail m;
	judge_mail_read(path, 0, &m);
	ck_assert_int_eq(m.problem, JUDGE_MAIL_OK);
	ck_assert_str_eq(m.from, "judge@club.example");
	ck_assert_str_eq(m.subject, "[ck-1] caballer\xc3\xad" "a");
	ck_assert_str_eq(m.text, "Your view, as P1:\nhand: c01\n");
	ck_assert_ptr_nonnull(strstr(m.references, "<r0@x> <a1@x>"));
	/* the judge's own messages say they are automatic */
	ck_assert_int_eq(m.automatic, 1);
	judge_mail_free(&m);
	FILE *fp = fopen(path, "r");
	char line[512];
	int date = 0, irt = 0, to = 0, tmp_empty = 1;
	while (fgets(line, sizeof line, fp)) {
		date |= strncmp(line, "Date: ", 6) == 0;
		irt |= strcmp(line, "In-Reply-To: <a1@x>\n") == 0;
		to |= strcmp(line, "To: ana@club.example\n") == 0;
	}
	fclose(fp);
	ck_assert(date && irt && to);
	/* nothing is left in tmp/ */
	char *tmpdir = join(maildir, "tmp");
	DIR *d = opendir(tmpdir);
	free(tmpdir);
	struct dirent *e;
	while ((e = readdir(d)))
		if (e->d_name[0] != '.')
			tmp_empty = 0;
	closedir(d);
	ck_assert(tmp_empty);
	free(path);
	free(maildir);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(spool_bounds_the_message)
{
	char *dir = temp_dir();
	char *maildir = join(dir, "failed"), *src = join(dir, "in");
	FILE *fp = fopen(src, "w");
	for (int i = 0; i < 1000; i++)
		fputs("0123456789", fp);
	fclose(fp);
	FILE *in = fopen(src, "r");
	char *base = NULL;
	int truncated = 0;
	ck_assert_int_eq(judge_maildir_spool(maildir, fileno(in), 4096, &base, &truncated), 0);
	fclose(in);
	ck_assert_int_eq(truncated, 1);
	hg_buf path;
	hg_buf_init(&path);
	hg_buf_printf(&path, "%s/tmp/%s", maildir, base);
	struct stat st;
	ck_assert_int_eq(stat(path.data, &st), 0);
	ck_assert_int_eq(st.st_size, 4096);
	ck_assert_int_eq(judge_maildir_keep(maildir, base), 0);
	ck_assert_int_ne(stat(path.data, &st), 0);
	hg_buf_clear(&path);
	hg_buf_printf(&path, "%s/new/%s", maildir, base);
	ck_assert_int_eq(stat(path.data, &st), 0);
	hg_buf_free(&path);
	free(maildir);
	free(src);
	free(base);
	remove_tree(dir);
	free(dir);
}
END_TEST

START_TEST(game_log_knows_handled_ids)
{
	char *dir = temp_dir();
	judge_game g;
	ck_assert_int_eq(judge_game_create(dir, "koc-1", &g), 0);
	judge_game_add_player(&g, "P1", "ana@club.example");
	g.draw_offer = hg_xstrdup("P1");
	ck_assert_int_eq(judge_game_save(&g), 0);
	ck_assert_int_eq(judge_game_log(&g, "2026-01-01T00:00:00Z message <a1@x> from ana: done\n"
					"  > message <b2@x> forged in a body\n"), 0);
	ck_assert_int_eq(judge_game_seen(&g, "a1@x"), 1);
	/* only an entry's first line names its id */
	ck_assert_int_eq(judge_game_seen(&g, "b2@x"), 0);
	judge_game_close(&g);
	/* a game opens only with its record */
	ck_assert_int_ne(judge_game_open(dir, "koc-1", &g), 0);
	judge_game_close(&g);
	char *path = join(dir, "koc-1/game.hgn");
	FILE *fp = fopen(path, "w");
	fclose(fp);
	free(path);
	ck_assert_int_eq(judge_game_open(dir, "koc-1", &g), 0);
	ck_assert_uint_eq(g.nplayers, 1);
	ck_assert_str_eq(judge_game_player_by_addr(&g, "ana@club.example")->seat, "P1");
	ck_assert_ptr_null(judge_game_player_by_addr(&g, "bob@club.example"));
	ck_assert_str_eq(g.draw_offer, "P1");
	judge_game_close(&g);
	remove_tree(dir);
	free(dir);
}
END_TEST

Suite *unit_suite(void)
{
	judge_mail_init();
	Suite *s = suite_create("judge");
	TCase *tc = tcase_create("body");
	tcase_add_test(tc, body_skips_quotes_and_signature);
	tcase_add_test(tc, body_stops_at_a_quoted_message);
	tcase_add_test(tc, body_bounds_lines_and_count);
	tcase_add_test(tc, subject_game_id);
	suite_add_tcase(s, tc);
	tc = tcase_create("mail-in");
	tcase_add_test(tc, mail_latin1_quoted_printable);
	tcase_add_test(tc, mail_base64_in_multipart);
	tcase_add_test(tc, mail_problems);
	tcase_add_test(tc, mail_nesting_limit);
	tcase_add_test(tc, mail_long_text_part_skipped);
	suite_add_tcase(s, tc);
	tc = tcase_create("mail-out");
	tcase_add_test(tc, outgoing_message_round_trip);
	tcase_add_test(tc, spool_bounds_the_message);
	tcase_add_test(tc, game_log_knows_handled_ids);
	suite_add_tcase(s, tc);
	return s;
}
