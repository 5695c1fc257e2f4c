#!/usr/bin/perl
# SPDX-License-Identifier: GPL-2.0
#
# grep-diff.pl NAMES-FILE GREP-ONLY-FILE: explain the lines that
# "grep -rnwE NAMES" finds and "autofreeze scan" does not.  GREP-ONLY-FILE
# holds grep's "FILE:LINE:TEXT" lines missing from the scan.  Each source
# file is cut into comments, string/char literals and code here, with a
# regular expression (independently of the helper's lexer); each grep hit
# must then be in a comment, in a literal, a struct member (after . or
# ->), or a call-like name not followed by "(" (a variable "frozen").
# Prints the counts per reason; exits 1 if a line is left unexplained.
use strict;
use warnings;

my ($names_file, $diff_file) = @ARGV;
open(my $nf, '<', $names_file) or die "$names_file: $!";
chomp(my @names = <$nf>);
close($nf);
my %object = map { $_ => 1 } qw(freezer_active TASK_FREEZABLE
	TASK_FREEZABLE_UNSAFE WQ_FREEZABLE system_freezable_wq
	system_freezable_power_efficient_wq KTW_FREEZABLE);
my $re = join('|', map { quotemeta } sort { length($b) <=> length($a) } @names);

my (%lines, %mask);
sub load {
	my ($file) = @_;
	return if $lines{$file};
	open(my $f, '<', $file) or die "$file: $!";
	local $/;
	my $src = <$f>;
	close($f);
	# mask: C for comment, S for literal, code kept; newlines kept
	my $m = '';
	while ($src =~ m{\G(?:(/\*.*?(?:\*/|\z))|(//(?:[^\\\n]|\\.)*)|
			("(?:[^"\\\n]|\\.)*"?)|('(?:[^'\\\n]|\\.)*'?)|
			([^/"']+|.))}gsx) {
		if (defined $1 || defined $2) {
			(my $c = $+) =~ s/[^\n]/C/g;
			$m .= $c;
		} elsif (defined $3 || defined $4) {
			(my $c = $+) =~ s/[^\n]/S/g;
			$m .= $c;
		} else {
			$m .= $5;
		}
	}
	$lines{$file} = [split(/\n/, $src, -1)];
	$mask{$file} = [split(/\n/, $m, -1)];
}

my %count = (comment => 0, literal => 0, member => 0, 'not a call' => 0);
my $bad = 0;
open(my $df, '<', $diff_file) or die "$diff_file: $!";
while (my $l = <$df>) {
	chomp $l;
	my ($file, $line) = split(/:/, $l);
	load($file);
	my $text = $lines{$file}[$line - 1] // '';
	my $mk = $mask{$file}[$line - 1] // '';
	my @why;
	while ($text =~ /(?<![A-Za-z0-9_\$])($re)(?![A-Za-z0-9_\$])/g) {
		my ($name, $at) = ($1, $-[1]);
		my $m = substr($mk, $at, 1);
		my $before = substr($mk, 0, $at);
		my $after = substr($mk, $at + length($name));
		if ($m eq 'C') {
			push @why, 'comment';
		} elsif ($m eq 'S') {
			push @why, 'literal';
		} elsif ($before =~ /(?:\.|->)\s*$/) {
			push @why, 'member';
		} elsif (!$object{$name} && $after !~ /^\s*\(/) {
			push @why, 'not a call';
		} else {
			push @why, 'USE';
		}
	}
	if (!@why || grep { $_ eq 'USE' } @why) {
		print "unexplained: $l\n";
		$bad++;
		next;
	}
	$count{$why[0]}++;
}
close($df);
print join(', ', map { "$_ $count{$_}" } sort keys %count),
	", unexplained $bad\n";
exit($bad ? 1 : 0);
