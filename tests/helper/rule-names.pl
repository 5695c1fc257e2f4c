#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# rule-names.pl COCCI...: the names the rules spell out, for comparing
# with the helper's ("autofreeze apis").  One line each:
#
#   list RULE NAME	a literal "identifier I = {...}" list of rule RULE,
#			or a name a *_token rule matches ("NAME@t")
#   sleep NAME		a key of the rule's PLAIN_SLEEP table
#   starter NAME ARG	a function of the started_as_kthread rule, ARG the
#			thread function's argument (0, or -1 for the last)
use strict;
use warnings;

for my $file (@ARGV) {
	open(my $f, '<', $file) or die "rule-names.pl: $file: $!\n";
	local $/;
	my $text = <$f>;
	close($f);
	while ($text =~ /^\@(\w+)[^\n]*\@\n(.*?)^\@\@\n(.*?)(?=^\@|\z)/msg) {
		my ($rule, $decl, $body) = ($1, $2, $3);
		while ($decl =~ /identifier\s+\w+\s*=\s*\{([^}]*)\}/g) {
			print "list $rule $_\n" for grep { $_ ne '' } split /[\s,]+/, $1;
		}
		if ($rule =~ /_token$/) {
			print "list $rule $1\n" while $body =~ /^(\w+)\@t\b/mg;
		}
		next unless $rule eq 'started_as_kthread';
		while ($body =~ /^(\w+)\((\w+), (\w+)\)$/mg) {
			print "starter $1 ", ($2 eq 'fn' ? 0 : -1), "\n";
		}
	}
	if ($text =~ /^PLAIN_SLEEP = \{\n(.*?)^\}/ms) {
		my $table = $1;
		print "sleep $_\n" for $table =~ /^\t"(\w+)":/mg;
	}
}
