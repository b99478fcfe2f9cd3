/*===- Escape.h - The escaping rules of bpfprobe's text ------------*- C -*-===*
 *
 * \file
 * The one definition of how bpfprobe escapes text, for the C++ libraries
 * (Support/Text.h) and the C runtime alike:
 *
 *  - values: a line of `.bpfprobe` metadata or of a plan (docs/metadata.md)
 *    writes a backslash, a newline and a tab of its value as \\, \n and
 *    \t; reading it back, any other escape is an error;
 *  - quoted text for people (spec dumps, printed records, messages): a C
 *    string literal, with \" \\ \n \t and \xNN for the other bytes that are
 *    not printable ASCII (\u00NN in JSON).
 *
 * Plain C99, header only, so that the runtime needs no C++ to share it.
 *===----------------------------------------------------------------------===*/

#ifndef BPFPROBE_SUPPORT_ESCAPE_H
#define BPFPROBE_SUPPORT_ESCAPE_H

#include <stdio.h>

/* The escape of byte c in a value, or NULL when c stands for itself. */
static inline const char *bpfprobe_value_escape(unsigned char c)
{
	switch (c) {
	case '\\': return "\\\\";
	case '\n': return "\\n";
	case '\t': return "\\t";
	default: return NULL;
	}
}

/* The byte that the escape \c stands for in a value, or -1 when there is
 * no such escape. */
static inline int bpfprobe_value_unescape(unsigned char c)
{
	switch (c) {
	case '\\': return '\\';
	case 'n': return '\n';
	case 't': return '\t';
	default: return -1;
	}
}

/* Byte c inside quoted text: writes its escape to out and returns the
 * escape's length, or returns 0 when c stands for itself. */
static inline int bpfprobe_quote_escape(unsigned char c, int json, char out[8])
{
	switch (c) {
	case '"': return snprintf(out, 8, "\\\"");
	case '\\': return snprintf(out, 8, "\\\\");
	case '\n': return snprintf(out, 8, "\\n");
	case '\t': return snprintf(out, 8, "\\t");
	default:
		if (c < 0x20 || c >= 0x7f)
			return snprintf(out, 8, json ? "\\u%04x" : "\\x%02x", c);
		return 0;
	}
}

#endif
