/* options.c - the option parsing every subcommand shares: its own options
 * merged with the common ones (--data-dir, --allow-data-path, --format,
 * --color, -q, --help, --version) into one getopt_long table, GNU --help and --version, and the
 * usage errors that exit with status 2. */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli.h"

/* Codes of the common long options, above every character and above the
 * codes the subcommands give their own long-only options. */
enum {
	OPT_DATA_DIR = 0x1000,
	OPT_ALLOW_DATA_PATH,
	OPT_FORMAT,
	OPT_COLOUR
};

static const struct option common_longopts[] = {
	{ "data-dir", required_argument, NULL, OPT_DATA_DIR },
	{ "allow-data-path", required_argument, NULL, OPT_ALLOW_DATA_PATH },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "color", optional_argument, NULL, OPT_COLOUR },
	{ "colour", optional_argument, NULL, OPT_COLOUR },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, 'V' },
};

static const char common_shortopts[] = "qhV";

void cli_print_version(FILE *fp)
{
	fprintf(fp, "herald %s\n", hg_version());
	/* The licence and copyright as GNU tools print them (LICENSE). */
	fputs("Copyright (C) 2026 the herald authors.\n"
	      "License MIT: <https://opensource.org/licenses/MIT>.\n"
	      "This is free software: you are free to change and redistribute it.\n"
	      "There is NO WARRANTY, to the extent permitted by law.\n", fp);
}

int cli_usage_error(const cli_spec *spec, const char *fmt, ...)
{
	va_list ap;
	hg_buf msg, shown;
	hg_buf_init(&msg);
	hg_buf_init(&shown);
	va_start(ap, fmt);
	hg_buf_vprintf(&msg, _(fmt), ap);
	va_end(ap);
	/* An operand quoted back may hold control characters: escaped. */
	hg_buf_put_visible(&shown, msg.data ? msg.data : "", msg.len, 0);
	fprintf(stderr, "herald %s: ", spec->name);
	fwrite(shown.data ? shown.data : "", 1, shown.len, stderr);
	hg_buf_free(&msg);
	hg_buf_free(&shown);
	fputc('\n', stderr);
	fprintf(stderr, _("Try 'herald %s --help' for more information.\n"), spec->name);
	return CLI_EXIT_USAGE;
}

int cli_from_option(const cli_spec *spec, const char *arg, int *from)
{
	*from = cli_informat_parse(arg);
	if (*from >= 0)
		return 0;
	cli_usage_error(spec, "invalid input format '%s' (valid: 'hgn', 'json', 'jsonl', 'yaml')",
			arg);
	return -1;
}

int cli_parse_number(const cli_spec *spec, const char *option, const char *arg,
		     unsigned long min, unsigned long max, unsigned long *out)
{
	char *end;
	errno = 0;
	unsigned long v = strtoul(arg, &end, 10);
	/* strtoul accepts a sign and leading space; a count does not. */
	if (arg[0] < '0' || arg[0] > '9' || *end != '\0' || errno == ERANGE ||
	    v < min || v > max) {
		cli_usage_error(spec, "invalid value '%s' for %s (a whole number from %lu to %lu)",
				arg, option, min, max);
		return -1;
	}
	*out = v;
	return 0;
}

static void print_usage_lines(FILE *fp, const cli_spec *spec)
{
	const char *line = spec->synopsis;
	const char *lead = _("Usage:");
	while (line) {
		const char *nl = strchr(line, '\n');
		int len = nl ? (int)(nl - line) : (int)strlen(line);
		fprintf(fp, "%s herald %s %.*s\n", lead, spec->name, len, line);
		lead = _("  or: ");
		line = nl ? nl + 1 : NULL;
	}
}

static void print_help(const cli_spec *spec)
{
	FILE *fp = stdout;
	print_usage_lines(fp, spec);
	if (spec->about)
		fputs(_(spec->about), fp);
	if (spec->options_help)
		fprintf(fp, "\n%s\n%s", _("Options:"), _(spec->options_help));
	fprintf(fp, "\n%s\n", _("Common options:"));
	fputs(_("      --data-dir=DIR     look for game data in DIR before HERALD_DATA_PATH\n"
	      "                         and the installed data\n"
	      "      --allow-data-path=DIR\n"
	      "                         let records name data files under DIR too\n"
	      "                         (repeatable)\n"), fp);
	if (spec->formats) {
		fputs(_("      --format=FORMAT    output format:"), fp);
		for (size_t i = 0; spec->formats[i]; i++)
			fprintf(fp, "%s %s%s", i ? "," : "", spec->formats[i],
				i == 0 ? _(" (default)") : "");
		fputc('\n', fp);
	}
	fputs(_("      --color[=WHEN]     colour diagnostics: auto (default: only on a\n"
	      "                         terminal and when NO_COLOR is unset), always, never\n"
	      "  -q, --quiet            report errors only\n"
	      "  -h, --help             display this help and exit\n"
	      "  -V, --version          output version information and exit\n"), fp);
	/* "deck check" is documented in herald-deck(1): the page of the
	 * command's first word. */
	fprintf(fp, _("\nFull documentation: man herald-%.*s\n"),
		(int)strcspn(spec->name, " "), spec->name);
}

static size_t count_options(const struct option *o)
{
	size_t n = 0;
	while (o && o[n].name)
		n++;
	return n;
}

/* A directory option's argument: 0, or a usage error.  A mistyped
 * directory would only show later as missing data. */
static int directory_arg(const cli_spec *spec, const char *option, const char *arg)
{
	struct stat st;
	if (!*arg)
		return cli_usage_error(spec, "%s needs a directory", option);
	if (stat(arg, &st) != 0)
		return cli_usage_error(spec, "%s '%s': %s", option, arg, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return cli_usage_error(spec, "%s '%s': %s", option, arg, strerror(ENOTDIR));
	return 0;
}

static int common_option(const cli_spec *spec, cli_common *c, int opt, const char *arg)
{
	switch (opt) {
	case OPT_DATA_DIR:
		if (directory_arg(spec, "--data-dir", arg) != 0)
			return CLI_EXIT_USAGE;
		c->data_dir = arg;
		return 0;
	case OPT_ALLOW_DATA_PATH:
		if (directory_arg(spec, "--allow-data-path", arg) != 0)
			return CLI_EXIT_USAGE;
		if (c->nallowed == CLI_MAX_ALLOWED)
			return cli_usage_error(spec, "at most %d --allow-data-path options",
					       CLI_MAX_ALLOWED);
		c->allowed[c->nallowed++] = arg;
		return 0;
	case OPT_FORMAT:
		for (int i = 0; spec->formats[i]; i++)
			if (strcmp(arg, spec->formats[i]) == 0) {
				c->format = i;
				return 0;
			}
		{
			hg_buf list;
			hg_buf_init(&list);
			for (size_t i = 0; spec->formats[i]; i++)
				hg_buf_printf(&list, "%s'%s'", i ? ", " : "", spec->formats[i]);
			cli_usage_error(spec, "invalid format '%s' (valid: %s)", arg, list.data);
			hg_buf_free(&list);
		}
		return CLI_EXIT_USAGE;
	case OPT_COLOUR:
		if (!arg || strcmp(arg, "always") == 0)
			c->colour = CLI_COLOUR_ALWAYS;
		else if (strcmp(arg, "auto") == 0)
			c->colour = CLI_COLOUR_AUTO;
		else if (strcmp(arg, "never") == 0)
			c->colour = CLI_COLOUR_NEVER;
		else
			return cli_usage_error(spec, "invalid argument '%s' for --color "
					       "(valid: 'auto', 'always', 'never')", arg);
		return 0;
	case 'q':
		c->quiet = 1;
		return 0;
	}
	return CLI_EXIT_USAGE;
}

int cli_parse(const cli_spec *spec, int argc, char **argv, cli_common *c, int *first)
{
	memset(c, 0, sizeof *c);
	c->colour = CLI_COLOUR_AUTO;

	/* getopt names the program after argv[0] in its messages. */
	static char progname[64];
	snprintf(progname, sizeof progname, "herald %s", spec->name);
	argv[0] = progname;

	size_t nown = count_options(spec->longopts);
	size_t ncommon = sizeof common_longopts / sizeof common_longopts[0];
	struct option *longopts = cli_xcalloc(nown + ncommon + 1, sizeof *longopts);
	size_t k = 0;
	for (size_t i = 0; i < nown; i++)
		longopts[k++] = spec->longopts[i];
	for (size_t i = 0; i < ncommon; i++) {
		if (common_longopts[i].val == OPT_FORMAT && !spec->formats)
			continue;
		longopts[k++] = common_longopts[i];
	}
	hg_buf shortopts;
	hg_buf_init(&shortopts);
	if (spec->shortopts)
		hg_buf_puts(&shortopts, spec->shortopts);
	hg_buf_puts(&shortopts, common_shortopts);
	cli_buf_check(&shortopts);

	int status = -1;
	optind = 1;
	opterr = 1;
	for (;;) {
		int opt = getopt_long(argc, argv, shortopts.data, longopts, NULL);
		if (opt == -1)
			break;
		if (opt == '?') {
			/* getopt has said what was wrong (unknown option, missing
			 * argument, ambiguous abbreviation). */
			fprintf(stderr, _("Try 'herald %s --help' for more information.\n"), spec->name);
			status = CLI_EXIT_USAGE;
			break;
		}
		if (opt == 'h') {
			print_help(spec);
			status = CLI_EXIT_OK;
			break;
		}
		if (opt == 'V') {
			cli_print_version(stdout);
			status = CLI_EXIT_OK;
			break;
		}
		if (opt == 'q' || opt >= OPT_DATA_DIR) {
			int rc = common_option(spec, c, opt, optarg);
			if (rc != 0) {
				status = CLI_EXIT_USAGE;
				break;
			}
			continue;
		}
		if (!spec->option || spec->option(spec->ctx, opt, optarg) != 0) {
			status = CLI_EXIT_USAGE;
			break;
		}
	}
	free(longopts);
	hg_buf_free(&shortopts);
	*first = optind;
	return status;
}

hg_session *cli_session_new(const cli_common *c)
{
	hg_session *s = hg_session_new(c->data_dir);
	if (!s)
		cli_wrote(HG_ENOMEM);	/* (says so and exits) */
	for (size_t i = 0; i < c->nallowed; i++)
		hg_session_allow_data_path(s, c->allowed[i]);
	return s;
}
