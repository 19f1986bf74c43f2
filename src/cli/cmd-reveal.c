/* cmd-reveal.c - `herald reveal`: publishes a master record's secret seed
 * (the SeedReveal tag), after which anyone can verify every card and die
 * with 'herald check' (herald-reveal(1)). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli.h"

typedef struct reveal_run {
	cli_common common;
	const char *key;
} reveal_run;

static cli_spec spec;

static int reveal_option(void *ctx, int opt, const char *arg)
{
	reveal_run *r = ctx;
	if (opt == 'k') {
		r->key = arg;
		return 0;
	}
	return -1;
}

static const struct option longopts[] = {
	{ "key", required_argument, NULL, 'k' },
	{ NULL, 0, NULL, 0 },
};

static cli_spec spec = {
	.name = "reveal",
	.synopsis = "[OPTION]... FILE",
	.about =
	N_("Publish the secret seed of the master record FILE: herald adds the tag\n"
	"SeedReveal (the secret from FILE.key) and rewrites FILE atomically under\n"
	"the key file's lock.  The game then takes no more moves; 'herald check\n"
	"FILE' verifies that the secret matches SeedCommit and that every card\n"
	"and die follows from it.  Usually run at the end of the game; run earlier,\n"
	"it closes the game.\n"
	"\n"
	"Exit status: 0 when the seed was published, 1 when the record would not\n"
	"take it, 2 on a usage or input/output error.\n"),
	.options_help =
	N_("  -k, --key=KEYFILE      the key file (default FILE.key)\n"),
	.shortopts = "k:",
	.longopts = longopts,
	.option = reveal_option,
};

static int reveal(hg_master *m, void *ctx, hg_buf *told, hg_diags *d)
{
	const char *path = ctx;
	int rc = hg_master_reveal(m, d);
	if (rc != 0)
		return rc;
	hg_buf_printf(told, "%s: the seed is revealed; 'herald check %s' verifies the game\n",
		      path, path);
	return 0;
}

int cli_reveal_main(int argc, char **argv)
{
	reveal_run r;
	memset(&r, 0, sizeof r);
	spec.ctx = &r;
	int first;
	int status = cli_parse(&spec, argc, argv, &r.common, &first);
	if (status >= 0)
		return status;
	if (first >= argc)
		return cli_usage_error(&spec, "missing FILE");
	if (first + 1 < argc)
		return cli_usage_error(&spec, "extra operand '%s'", argv[first + 1]);
	return cli_master_run(&r.common, "reveal", argv[first], r.key, 1, reveal, (void *)argv[first]);
}
