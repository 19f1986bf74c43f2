/* cmd-split.c - `herald split`: cut an archive into shards at game
 * boundaries, for checking it on many processors or machines (the recipe is
 * in herald-check(1), CHECKING AN ARCHIVE ON MANY MACHINES).
 *
 * The parser finds where each game begins; the bytes are copied as they
 * are, so a shard checks exactly as its games did in the archive (a broken
 * game stays broken).  Both the parser and the copy stream: memory does not
 * grow with the archive. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"

#define MAX_SHARDS 100000

typedef struct split_run {
	cli_common common;
	unsigned long shards;	/* -n: how many, by size */
	unsigned long games;	/* -g: games per shard */
	const char *prefix;	/* -o */
} split_run;

static int split_option(void *ctx, int opt, const char *arg);

static const struct option longopts[] = {
	{ "shards", required_argument, NULL, 'n' },
	{ "games", required_argument, NULL, 'g' },
	{ "output", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "split",
	.synopsis = "[OPTION]... FILE",
	.about =
	N_("Cut the archive FILE into shards that each hold whole games, copied byte\n"
	"for byte: N shards of about equal size (-n), or shards of K games (-g).\n"
	"The shards are named PREFIXnnnn.hgn (PREFIX: FILE without '.hgn', then\n"
	"'-'), and their names are printed on standard output, one per line, ready\n"
	"for 'herald check --format=jsonl' on many processors or machines and\n"
	"'herald report' to merge the results (see herald-check(1)).\n"
	"\n"
	"Exit status: 0 when the shards are written, 2 on a usage or input/output\n"
	"error (a shard already written stays; none is left half written).\n"),
	.options_help =
	N_("  -n, --shards=N         N shards of about equal size (default: one per\n"
	"                         processor)\n"
	"  -g, --games=K          shards of K games each (the last may hold fewer)\n"
	"  -o, --output=PREFIX    name the shards PREFIX0001.hgn, PREFIX0002.hgn, ...\n"),
	.shortopts = "n:g:o:",
	.longopts = longopts,
	.option = split_option,
};

static int split_option(void *ctx, int opt, const char *arg)
{
	split_run *r = ctx;
	switch (opt) {
	case 'n':
		return cli_parse_number(&spec, "--shards", arg, 1, MAX_SHARDS, &r->shards);
	case 'g':
		return cli_parse_number(&spec, "--games", arg, 1, (unsigned long)-1 / 2, &r->games);
	case 'o':
		if (!*arg) {
			cli_usage_error(&spec, "--output needs a prefix");
			return -1;
		}
		r->prefix = arg;
		return 0;
	}
	return -1;
}

typedef struct shard_writer {
	const char *command;
	hg_buf prefix;
	FILE *in;		/* the archive, read a second time for the bytes */
	unsigned long long copied;	/* bytes of it already written */
	cli_atomic out;
	int open;
	unsigned long count;
	hg_buf name;
} shard_writer;

/* Copies the archive's bytes up to `to` into the open shard. */
static int copy_to(shard_writer *w, unsigned long long to)
{
	char chunk[65536];
	while (w->copied < to) {
		unsigned long long want = to - w->copied;
		size_t n = fread(chunk, 1, want < sizeof chunk ? (size_t)want : sizeof chunk, w->in);
		if (n == 0) {
			cli_error(w->command, "read error: %s", ferror(w->in) ? strerror(errno) :
				  "the file changed while it was split");
			return -1;
		}
		if (fwrite(chunk, 1, n, w->out.fp) != n) {
			cli_error(w->command, "cannot write '%s': %s", w->out.path, strerror(errno));
			return -1;
		}
		w->copied += n;
	}
	return 0;
}

static int shard_close(shard_writer *w, unsigned long long to)
{
	if (!w->open)
		return 0;
	w->open = 0;
	if (copy_to(w, to) != 0) {
		cli_atomic_abort(&w->out);
		return -1;
	}
	hg_buf_clear(&w->name);
	hg_buf_puts(&w->name, w->out.path);
	if (cli_atomic_commit(&w->out) != 0) {
		cli_error(w->command, "cannot write '%s': %s", w->name.data, strerror(errno));
		return -1;
	}
	printf("%s\n", w->name.data);
	return 0;
}

static int shard_open(shard_writer *w)
{
	w->count++;
	hg_buf_clear(&w->name);
	hg_buf_printf(&w->name, "%s%04lu.hgn", w->prefix.data, w->count);
	cli_buf_check(&w->name);
	if (cli_atomic_open(&w->out, w->name.data) != 0) {
		cli_error(w->command, "cannot write '%s': %s", w->name.data, strerror(errno));
		return -1;
	}
	w->open = 1;
	return 0;
}

int cli_split_main(int argc, char **argv)
{
	split_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first >= argc)
		return cli_usage_error(&spec, "missing FILE operand");
	if (first + 1 < argc)
		return cli_usage_error(&spec, "one FILE at a time ('%s' is one too many)",
				       argv[first + 1]);
	if (r.shards && r.games)
		return cli_usage_error(&spec, "--shards and --games exclude each other");
	const char *path = argv[first];
	struct stat st;
	if (strcmp(path, "-") == 0) {
		cli_error("split", "standard input cannot be split (the archive is read twice): name a file");
		return CLI_EXIT_USAGE;
	}
	if (stat(path, &st) != 0) {
		cli_error("split", "cannot open '%s': %s", path, strerror(errno));
		return CLI_EXIT_USAGE;
	}
	if (!S_ISREG(st.st_mode)) {
		cli_error("split", "'%s' is not a regular file", path);
		return CLI_EXIT_USAGE;
	}
	if (!r.shards && !r.games) {
		long n = sysconf(_SC_NPROCESSORS_ONLN);
		r.shards = n < 1 ? 1 : (unsigned long)n;
	}
	unsigned long long total = (unsigned long long)st.st_size;

	shard_writer w;
	memset(&w, 0, sizeof w);
	w.command = "split";
	hg_buf_init(&w.prefix);
	hg_buf_init(&w.name);
	if (r.prefix) {
		hg_buf_puts(&w.prefix, r.prefix);
	} else {
		size_t len = strlen(path);
		if (len > 4 && strcmp(path + len - 4, ".hgn") == 0)
			len -= 4;
		hg_buf_putn(&w.prefix, path, len);
		hg_buf_putc(&w.prefix, '-');
	}

	hg_diags d;
	hg_diags_init(&d);
	hg_parser *p = hg_parser_open_file(path, &d);
	w.in = fopen(path, "rb");
	int rc = 0;
	if (!p || !w.in) {
		cli_print_diags(stderr, &d, cli_use_colour(&r.common, stderr), 0);
		if (!w.in)
			cli_error("split", "cannot open '%s': %s", path, strerror(errno));
		rc = -1;
	}
	unsigned long games = 0, in_shard = 0, shard_no = 0;
	while (rc == 0) {
		hg_game_record *g;
		int got = hg_parser_next(p, &g, NULL);
		if (got < 0) {
			cli_error("split", "read error in '%s'", path);
			rc = -1;
			break;
		}
		if (got == 0)
			break;
		hg_record_free(g);
		unsigned long long start = games == 0 ? 0 : hg_parser_game_offset(p);
		games++;
		/* Which shard this game opens or joins: by its place in the file
		 * (-n), or by count (-g). */
		unsigned long want = r.games ? (games - 1) / r.games :
				     (unsigned long)((long double)start * r.shards / (total ? total : 1));
		if (!w.open || (want != shard_no && in_shard > 0)) {
			if (shard_close(&w, start) != 0 || shard_open(&w) != 0) {
				rc = -1;
				break;
			}
			shard_no = want;
			in_shard = 0;
		}
		in_shard++;
	}
	/* A file that holds no game is one shard, whole: checked, it says what
	 * checking the file says (no game, an encoding it cannot read). */
	if (rc == 0 && games == 0 && shard_open(&w) != 0)
		rc = -1;
	if (rc == 0 && w.open && shard_close(&w, total) != 0)
		rc = -1;
	if (w.open)
		cli_atomic_abort(&w.out);
	hg_parser_close(p);
	if (w.in)
		fclose(w.in);
	hg_diags_free(&d);
	hg_buf_free(&w.prefix);
	hg_buf_free(&w.name);
	return rc == 0 ? CLI_EXIT_OK : CLI_EXIT_USAGE;
}
