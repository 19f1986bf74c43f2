/* check-threads.c - `herald check -j N`: N threads check the games, and
 * the report is the same, byte for byte but for the time, as with -j 1.
 *
 * The input is cut into units, reported in input order:
 *  - a piece of a large regular file, which a thread parses with a parser
 *    of its own (hg_parser_open_file_at) and checks game by game, so that
 *    the threads also parse in parallel;
 *  - a batch of games read from any other input (standard input, a pipe, a
 *    small file) by the one stream reader, which the threads take in turn.
 * A thread that takes a unit checks all of it itself, where its memory is
 * in cache (handing parsed games from a reading thread to replaying ones
 * cost a quarter more time in moving them between the processors' caches).
 *
 * Pieces are cut where hg_resume_find() sees a game begin after a blank
 * line.  Only the parser of the piece before can tell whether it really
 * does (the line could be inside a comment, or a broken game): when that
 * parser reaches the cut, it asks hg_parser_resumes_at(); if not, it reads
 * on through the next piece, whose own results are dropped.  What is
 * reported is therefore always what one parser reading the whole file
 * would have found. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

#define UNITS_PER_JOB 2		/* units in flight per thread */
#define READ_BATCH 32		/* games in a stream unit */

/* A file cut into pieces, while pieces are being cut from it. */
typedef struct piece_file {
	int fd;
	const char *path;
	size_t input;
	unsigned long long size, bytes_before;
	hg_resume next_start;	/* where the next piece begins */
	int cut_all;		/* the maker cut the last piece */
	int taken;		/* a piece reads to the end: cut no more */
	struct unit *last_piece;	/* the last one queued, not dropped */
	struct piece_file *next;	/* every one, to be freed at the end */
} piece_file;

typedef struct unit {
	struct unit *next;	/* in input order */
	/* what was checked, in order: items[0..n) are done */
	item *items;
	size_t n, cap, reported;
	int finished;		/* its thread is done with it */
	/* a piece only */
	piece_file *file;
	hg_resume start, end;
	int has_end;		/* else it reads to the end of the file */
	int dropped;		/* the piece before read through it */
	struct unit *next_piece;	/* the file's next piece, once cut */
	/* a stream batch only: games read, to be checked */
	item batch[READ_BATCH];
	size_t nbatch;
} unit;

typedef struct check_pool {
	check_run *r;
	pthread_mutex_t lock;
	pthread_cond_t changed;	/* anything below changed */
	unit *head, *tail;
	size_t inflight;
	int making, reporting, exhausted;
	/* the unit maker, used by one thread at a time (making) */
	size_t next_input;
	piece_file *cutting;	/* the file being cut, if one is */
	piece_file *files;
} check_pool;

/* ------------------------------------------------------------------------
 * Making units: one thread at a time, outside the lock
 * ------------------------------------------------------------------------ */

static unit *unit_new(void)
{
	return cli_xcalloc(1, sizeof(unit));
}

/* Appends an item to a unit (under the lock: the reporter reads items). */
static void unit_put(unit *u, item *it)
{
	if (u->n == u->cap) {
		u->cap = u->cap ? 2 * u->cap : 64;
		u->items = cli_xrealloc(u->items, u->cap * sizeof *u->items);
	}
	u->items[u->n++] = *it;
}

/* Opens operand `input` to be cut into pieces, when it is a regular file
 * large enough to be worth it: 1, else 0 (it is then read as a stream, which
 * reports what went wrong). */
static int open_pieces(check_pool *pool, size_t input)
{
	check_run *r = pool->r;
	const char *path = r->inputs->paths[input];
	if (strcmp(path, "-") == 0 || cli_informat_pick(r->from, path) != CLI_IN_HGN)
		return 0;	/* JSON and YAML are read as a stream */
	hg_diags quiet;	/* the stream reader opens it again and says why not */
	hg_diags_init(&quiet);
	int fd = cli_input_open(r->inputs, input, &quiet);
	hg_diags_free(&quiet);
	if (fd < 0)
		return 0;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (unsigned long long)st.st_size < 2 * r->piece_bytes) {
		close(fd);
		return 0;
	}
	piece_file *f = cli_xcalloc(1, sizeof *f);
	f->fd = fd;
	f->path = path;
	f->input = input;
	f->size = (unsigned long long)st.st_size;
	f->bytes_before = r->bytes_before;
	f->next_start.offset = 0;
	f->next_start.line = 1;
	f->next_start.game_bytes = 0;
	f->next = pool->files;
	pool->files = f;
	pool->cutting = f;
	r->bytes_before += f->size;
	return 1;
}

/* Cuts the next piece of the file being cut. */
static unit *cut_piece(check_pool *pool)
{
	piece_file *f = pool->cutting;
	unit *u = unit_new();
	u->file = f;
	u->start = f->next_start;
	uint64_t want = u->start.offset + pool->r->piece_bytes;
	/* a last piece of less than half a piece joins the one before */
	if (want + pool->r->piece_bytes / 2 < f->size &&
	    hg_resume_find(f->fd, &u->start, want, &u->end) == 1) {
		u->has_end = 1;
		f->next_start = u->end;
	} else {
		f->cut_all = 1;	/* or a read error, which the parser reports */
	}
	return u;
}

/* Reads a batch of games (and what comes between them) from the stream
 * reader. */
static unit *read_batch(check_pool *pool)
{
	unit *u = unit_new();
	while (u->nbatch < READ_BATCH && check_stream_next(pool->r, &u->batch[u->nbatch]))
		u->nbatch++;
	return u;
}

/* The next unit, in input order, or NULL when all is read.  Operands that
 * cannot be read become units of one item. */
static unit *make_unit(check_pool *pool)
{
	check_run *r = pool->r;
	for (;;) {
		if (pool->cutting) {
			if (!pool->cutting->cut_all)
				return cut_piece(pool);
			close(pool->cutting->fd);
			pool->cutting->fd = -1;
			pool->cutting = NULL;
		}
		if (r->rd_open) {
			unit *u = read_batch(pool);
			if (u->nbatch > 0)
				return u;
			free(u);
		}
		if (pool->next_input == r->inputs->n)
			return NULL;
		size_t input = pool->next_input++;
		r->files++;
		if (open_pieces(pool, input))
			continue;
		item failed;
		if (check_stream_open(r, input, &failed) < 0) {
			unit *u = unit_new();
			u->batch[u->nbatch++] = failed;
			return u;
		}
	}
}

/* ------------------------------------------------------------------------
 * Checking a unit: by the thread that made it, outside the lock
 * ------------------------------------------------------------------------ */

static void check_batch(check_pool *pool, unit *u)
{
	for (size_t i = 0; i < u->nbatch; i++) {
		item *it = &u->batch[i];
		if (it->kind == ITEM_GAME)
			check_replay_item(pool->r->session, it);
		pthread_mutex_lock(&pool->lock);
		unit_put(u, it);
		if (u == pool->head)
			pthread_cond_broadcast(&pool->changed);
		pthread_mutex_unlock(&pool->lock);
	}
	u->nbatch = 0;
}

/* The piece u reads past its end, which is not where a game begins as one
 * parser would see it: it reads on through the next piece, whose results
 * are dropped, or, when that one is not cut yet, to the end of the file.
 * Under the lock. */
static void read_through(check_pool *pool, unit *u)
{
	piece_file *f = u->file;
	unit *v = u->next_piece;
	if (v) {
		v->dropped = 1;
		u->end = v->end;
		u->has_end = v->has_end;
		u->next_piece = v->next_piece;
		if (f->last_piece == v)
			f->last_piece = u;
	} else {
		u->has_end = 0;
		f->taken = 1;	/* the maker drops what it is cutting */
	}
}

/* The pieces after u are dropped: u read to the end of the file before
 * its end.  Under the lock. */
static void drop_after(unit *u)
{
	for (unit *v = u->next_piece; v; v = v->next_piece)
		v->dropped = 1;
	u->next_piece = NULL;
	u->file->last_piece = u;
	u->file->taken = 1;
}

static void check_piece(check_pool *pool, unit *u)
{
	check_run *r = pool->r;
	piece_file *f = u->file;
	hg_diags d;
	hg_diags_init(&d);
	/* the file's first piece has no resume point: it may begin with a
	 * byte order mark, or with no game at all */
	hg_parser *p = NULL;
	int fd = cli_input_open(r->inputs, f->input, &d);
	FILE *fp = fd >= 0 ? fdopen(fd, "rb") : NULL;
	if (fd >= 0 && !fp)
		close(fd);	/* no memory: said as the file would be */
	if (fp)
		p = u->start.offset == 0 ? hg_parser_open_stream(f->path, fp, 1)
					 : hg_parser_open_stream_at(f->path, fp, 1, &u->start, &d);
	else if (fd >= 0)
		hg_diag_add(&d, HG_ERROR, (hg_pos){ f->path, 0, 0 }, "hgn.io-error",
			    "cannot open the file: %s", strerror(ENOMEM));
	item it;
	if (!p) {
		/* the file went away since it was cut: said, and the pieces
		 * after this one are not read either (as a parser that cannot
		 * read on ends the file) */
		check_loose_item(&it, f->path, f->input, &d, 1);
		pthread_mutex_lock(&pool->lock);
		unit_put(u, &it);
		if (!u->dropped)	/* a dropped piece's chain is the one before's */
			drop_after(u);
		pthread_mutex_unlock(&pool->lock);
		hg_diags_free(&d);
		return;
	}
	for (;;) {
		hg_game_record *g;
		int rc = hg_parser_next(p, &g, &d);
		if (rc <= 0) {
			/* the end of the file: what is left to say, and no
			 * pieces after this one */
			int loose = d.n > 0;
			if (loose)
				check_loose_item(&it, f->path, f->input, &d, rc < 0);
			pthread_mutex_lock(&pool->lock);
			if (loose)
				unit_put(u, &it);
			if (u->has_end && !u->dropped)	/* as above */
				drop_after(u);
			pthread_mutex_unlock(&pool->lock);
			break;
		}
		check_game_item(&it, f->path, f->input, g, &d, f->bytes_before + hg_parser_offset(p));
		check_replay_item(r->session, &it);
		/* past the end?  The parser has read the next game's first
		 * token (or more) */
		uint64_t at = hg_parser_offset(p);
		pthread_mutex_lock(&pool->lock);
		unit_put(u, &it);
		if (u == pool->head)
			pthread_cond_broadcast(&pool->changed);
		int stop = u->dropped;
		while (!stop && u->has_end && at > u->end.offset) {
			if (hg_parser_resumes_at(p, &u->end))
				stop = 1;
			else
				read_through(pool, u);
		}
		pthread_mutex_unlock(&pool->lock);
		if (stop)
			break;
	}
	hg_diags_free(&d);
	hg_parser_close(p);
}

/* ------------------------------------------------------------------------
 * The threads
 * ------------------------------------------------------------------------ */

static void unit_free(unit *u)
{
	for (size_t i = u->reported; i < u->n; i++)	/* a dropped piece's */
		check_discard_item(&u->items[i]);
	free(u->items);
	free(u);
}

/* Queues a unit just made: 1; or 0 for a piece of a file that a piece
 * before it now reads to the end, which is freed.  Under the lock. */
static int enqueue(check_pool *pool, unit *u)
{
	piece_file *f = u->file;
	if (f) {
		if (f->taken) {
			f->cut_all = 1;
			unit_free(u);
			return 0;
		}
		if (f->last_piece)
			f->last_piece->next_piece = u;
		f->last_piece = u;
	}
	if (pool->tail)
		pool->tail->next = u;
	else
		pool->head = u;
	pool->tail = u;
	pool->inflight++;
	return 1;
}

#define REPORT_AT_ONCE 64

/* What every thread runs, the main thread included.  Under the lock, in
 * order of preference: report what the oldest unit has checked; free the
 * oldest unit when it is finished and reported (or dropped); make the next
 * unit, when the maker is free and there is room, and check it; finish
 * when everything is made and reported; else wait for a change. */
static void *pool_thread(void *arg)
{
	check_pool *pool = arg;
	check_run *r = pool->r;
	const size_t room = r->jobs * UNITS_PER_JOB;
	pthread_mutex_lock(&pool->lock);
	for (;;) {
		unit *h = pool->head;
		if (h && !pool->reporting) {
			if (h->finished && (h->dropped || h->reported == h->n)) {
				pool->head = h->next;
				if (!pool->head)
					pool->tail = NULL;
				pool->inflight--;
				/* the next piece cut follows a piece that ended
				 * where it begins: it has nothing to link to */
				if (h->file && h->file->last_piece == h)
					h->file->last_piece = NULL;
				pthread_mutex_unlock(&pool->lock);
				unit_free(h);
				pthread_mutex_lock(&pool->lock);
				pthread_cond_broadcast(&pool->changed);
				continue;
			}
			if (!h->dropped && h->reported < h->n) {
				/* moved out under the lock: the items may move
				 * when the unit grows */
				item out[REPORT_AT_ONCE];
				size_t k = 0;
				while (k < REPORT_AT_ONCE && h->reported < h->n)
					out[k++] = h->items[h->reported++];
				pool->reporting = 1;
				pthread_mutex_unlock(&pool->lock);
				for (size_t i = 0; i < k; i++)
					check_report_item(r, &out[i]);
				pthread_mutex_lock(&pool->lock);
				pool->reporting = 0;
				pthread_cond_broadcast(&pool->changed);
				continue;
			}
		}
		if (!pool->making && !pool->exhausted && pool->inflight < room) {
			pool->making = 1;
			pthread_mutex_unlock(&pool->lock);
			unit *u = make_unit(pool);
			pthread_mutex_lock(&pool->lock);
			pool->making = 0;
			if (!u)
				pool->exhausted = 1;
			pthread_cond_broadcast(&pool->changed);
			if (!u || !enqueue(pool, u))
				continue;
			pthread_mutex_unlock(&pool->lock);
			if (u->file)
				check_piece(pool, u);
			else
				check_batch(pool, u);
			pthread_mutex_lock(&pool->lock);
			u->finished = 1;
			pthread_cond_broadcast(&pool->changed);
			continue;
		}
		if (pool->exhausted && !pool->making && !pool->head)
			break;
		pthread_cond_wait(&pool->changed, &pool->lock);
	}
	pthread_mutex_unlock(&pool->lock);
	return NULL;
}

void check_in_threads(check_run *r, const cli_inputs *in)
{
	check_pool pool;
	memset(&pool, 0, sizeof pool);
	pool.r = r;
	r->inputs = in;
	hg_diags_init(&r->rd_d);
	pthread_mutex_init(&pool.lock, NULL);
	pthread_cond_init(&pool.changed, NULL);
	/* jobs - 1 more threads: the main thread is the last of the N */
	pthread_t *threads = cli_xcalloc(r->jobs, sizeof *threads);
	for (unsigned long i = 0; i + 1 < r->jobs; i++)
		if (pthread_create(&threads[i], NULL, pool_thread, &pool) != 0) {
			cli_error("check", "cannot start a thread: %s", strerror(errno));
			exit(CLI_EXIT_USAGE);
		}
	pool_thread(&pool);
	for (unsigned long i = 0; i + 1 < r->jobs; i++)
		pthread_join(threads[i], NULL);
	free(threads);
	while (pool.files) {
		piece_file *f = pool.files;
		pool.files = f->next;
		if (f->fd >= 0)
			close(f->fd);
		free(f);
	}
	hg_diags_free(&r->rd_d);
	pthread_cond_destroy(&pool.changed);
	pthread_mutex_destroy(&pool.lock);
}
