/* master-move.c - the time of one `herald move` on a game of 200 actions
 * or more (herald-move(1)), as a mail robot that keeps herald's session
 * (its loaded game data) pays it: lock, read, replay with the secret, check
 * and append the move with its chance, write atomically (with fsync).
 *
 *   make bench-master-move && ./bench/master-move DIR
 *
 * Plays an Encrucijada game of six seats by random legal actions through
 * the library (as tests/remote.test does through the command) until its
 * record holds 200 actions, then times the next move 50 times, each on the
 * same record restored, and prints the best and the median.  DIR receives
 * the record and its key.  Not a test: `make bench` prints the figure. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "herald-engine.h"

#define TARGET_ACTIONS 200
#define RUNS 50

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static int by_value(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

/* A legal action in the record's position as any seat sees it (the record
 * replayed without the secret, as `herald next` does), without a '?', the
 * k-th of those: its seat and body.  0, or -1 when the game is over. */
static int pick_action(hg_session *s, const char *path, unsigned long k, hg_buf *seat,
		       hg_buf *body)
{
	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_file(path, &d);
	hg_game_record *rec = NULL;
	int rc = -1;
	if (p && hg_parser_next(p, &rec, &d) == 1) {
		hg_state *st = NULL;
		const hg_game_class *cls = NULL;
		hg_check_game(s, rec, &d, NULL, NULL, &st, &cls);
		if (st && !cls->result(st)) {
			hg_action_list legal = { 0 };
			cls->legal(st, &legal);
			hg_buf ss, bb;
			hg_buf_init(&ss);
			hg_buf_init(&bb);
			size_t plain = 0;
			for (int pass = 0; pass < 2 && rc != 0; pass++)
				for (size_t i = 0; i < legal.n && rc != 0; i++) {
					hg_buf_clear(&ss);
					hg_buf_clear(&bb);
					cls->format(st, legal.v[i], &ss, &bb);
					int unknown = bb.data && strstr(bb.data, "?") != NULL;
					if (pass == 0 && !unknown)
						plain++;
					if (pass == 1 && !unknown && plain && i >= k % plain) {
						hg_buf_puts(seat, ss.data);
						hg_buf_puts(body, bb.data);
						rc = 0;
					}
				}
			for (size_t i = 0; i < legal.n; i++)
				cls->free_action(legal.v[i]);
			free(legal.v);
			hg_buf_free(&ss);
			hg_buf_free(&bb);
		}
		if (st)
			cls->free_state(st);
	}
	hg_record_free(rec);
	hg_parser_close(p);
	hg_diags_free(&d);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: master-move DIR\n");
		return 2;
	}
	hg_buf path;
	hg_buf_init(&path);
	hg_buf_printf(&path, "%s/bench-move.hgn", argv[1]);
	char *key = hg_master_key_path(path.data);
	remove(path.data);
	remove(key);

	hg_session *s = hg_session_new(NULL);
	hg_diags d;
	hg_diags_init(&d);
	char *players[] = { "A", "B", "C", "D", "E", "F" };
	hg_master_new_opts o = { path.data, "encrucijada", NULL, NULL, players, 6, NULL, 0 };
	char secret[HG_FAIR_HEX_LEN + 1];
	hg_game_record *rec = hg_master_new(s, &o, secret, &d);
	if (!rec || hg_master_key_create(key, secret) != 0) {
		fprintf(stderr, "master-move: cannot start the game\n");
		return 1;
	}
	hg_buf text, seat, body, told;
	hg_buf_init(&text);
	hg_buf_init(&seat);
	hg_buf_init(&body);
	hg_buf_init(&told);
	hg_write_hgn(rec, &text);
	hg_record_free(rec);
	hg_write_file_atomic(path.data, text.data, text.len);

	size_t actions = 0;
	for (unsigned long k = 0; actions < TARGET_ACTIONS; k = k * 1103515245 + 12345) {
		hg_buf_clear(&seat);
		hg_buf_clear(&body);
		if (pick_action(s, path.data, k >> 16, &seat, &body) != 0)
			break;
		hg_master *m = hg_master_open(s, path.data, NULL, 1, &d);
		if (!m)
			break;
		hg_buf_clear(&told);
		int rc = hg_master_move(m, seat.data, body.data, -1, &told, &d);
		actions = hg_master_actions(m);
		hg_master_close(m);
		if (rc != 0)
			break;
	}
	if (actions < TARGET_ACTIONS || d.nerrors) {
		fprintf(stderr, "master-move: the game ended at %zu actions\n", actions);
		return 1;
	}

	/* The position to answer, kept, and the move to time. */
	hg_buf_clear(&text);
	hg_diags_clear(&d);
	FILE *fp = fopen(path.data, "rb");
	char chunk[65536];
	size_t n;
	while (fp && (n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		hg_buf_putn(&text, chunk, n);
	if (fp)
		fclose(fp);
	hg_buf_clear(&seat);
	hg_buf_clear(&body);
	pick_action(s, path.data, 0, &seat, &body);
	double t[RUNS];
	for (int i = 0; i < RUNS; i++) {
		hg_write_file_atomic(path.data, text.data, text.len);
		double t0 = now();
		hg_master *m = hg_master_open(s, path.data, NULL, 1, &d);
		hg_buf_clear(&told);
		int rc = m ? hg_master_move(m, seat.data, body.data, (long)actions, &told, &d) : -1;
		hg_master_close(m);
		t[i] = now() - t0;
		if (rc != 0) {
			fprintf(stderr, "master-move: the timed move was refused\n");
			return 1;
		}
	}
	hg_write_file_atomic(path.data, text.data, text.len);
	qsort(t, RUNS, sizeof t[0], by_value);
	printf("  herald move, a %zu-action game (%s: %s), library: best %.2f ms, median %.2f ms\n",
	       actions, seat.data, body.data, t[0] * 1000, t[RUNS / 2] * 1000);
	/* for bench/run.sh, which times the command on the same move */
	printf("%s\t%s\t%zu\t%s\n", path.data, seat.data, actions, body.data);
	hg_buf_free(&text);
	hg_buf_free(&seat);
	hg_buf_free(&body);
	hg_buf_free(&told);
	hg_buf_free(&path);
	hg_diags_free(&d);
	hg_session_free(s);
	free(key);
	return 0;
}
