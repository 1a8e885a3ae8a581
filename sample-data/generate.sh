#!/usr/bin/env bash
# Rebuilds sample-data/experiments.json through the real CLI, with a fixed clock per step, so the
# ranges, revisions and history are exactly what abconsole itself writes.
# Usage: sample-data/generate.sh [path/to/abconsole]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
bin=${1:-$here/../.build/debug/abconsole}
store=$here/experiments.json
rm -f "$store" "$store.lock"
export ABCONSOLE_STORE=$store
at() { ABCONSOLE_NOW=$1 ABCONSOLE_OPERATOR=$2 "$bin" "${@:3}" >/dev/null; }

# The story, in time order: eight experiments from the product this console grew out of.
at 2026-06-02T09:12:00Z maria.pm create account_add_funds --type user --variants control=50,account_view=50  --description "Offer 'Add funds' directly on the account view instead of the wallet tab"
at 2026-06-02T09:20:00Z dev.jonas whitelist add account_add_funds emp-1001 account_view --note "Jonas (employee) - dogfooding"
at 2026-06-02T09:21:00Z dev.jonas whitelist add account_add_funds emp-1002 control --note "QA baseline account"
at 2026-06-03T08:00:00Z maria.pm start account_add_funds
at 2026-06-10T13:05:00Z dev.jonas create app_color_scheme --type device --variants classic=40,dark=40,high_contrast=20  --description "Default colour scheme on first launch"
at 2026-06-10T13:07:00Z dev.jonas set-payload app_color_scheme classic '{"background":"#ffffff","accent":"#0a84ff"}'
at 2026-06-10T13:08:00Z dev.jonas set-payload app_color_scheme dark '{"background":"#1c1c1e","accent":"#64d2ff"}'
at 2026-06-10T13:09:00Z dev.jonas set-payload app_color_scheme high_contrast '{"background":"#000000","accent":"#ffd60a"}'
at 2026-06-11T07:30:00Z maria.pm start app_color_scheme
at 2026-06-11T07:31:00Z support.li whitelist add app_color_scheme device-7f3a high_contrast --note "Accessibility partner (Vision Aid) demo tablet"
at 2026-06-20T12:00:00Z owner.sam create iap_discount --type user --variants control=34,discount_10=33,discount_20=33  --description "Launch discount on the yearly in-app purchase"
at 2026-06-21T08:00:00Z owner.sam start iap_discount
at 2026-07-01T10:00:00Z maria.pm create cash_projection_banner --type user --variants control=0,banner=1  --description "Show the 30-day cash projection banner on the home screen"
at 2026-07-01T10:02:00Z maria.pm start cash_projection_banner
at 2026-07-08T10:00:00Z maria.pm ramp cash_projection_banner banner=5
at 2026-07-15T15:40:00Z owner.sam create ebook_promotion --type user --variants control=34,social_share=33,newsletter=33  --description "Free e-book: unlock by sharing on social media or by subscribing to the newsletter"
at 2026-07-15T15:45:00Z support.li whitelist add ebook_promotion partner-acme-01 newsletter --note "ACME Publishing partner account (contract #4471)"
at 2026-07-15T15:46:00Z support.li whitelist add ebook_promotion partner-acme-02 newsletter --note "ACME Publishing partner account (contract #4471)"
at 2026-07-16T09:00:00Z owner.sam start ebook_promotion
at 2026-07-22T10:00:00Z maria.pm ramp cash_projection_banner banner=10
at 2026-08-04T11:00:00Z dev.jonas create purchase_button_color --type user --variants blue=50,green=50 --control blue  --description "Colour of the 'Buy' button on the product page"
at 2026-08-04T11:02:00Z dev.jonas set-payload purchase_button_color blue '{"color":"#0a84ff"}'
at 2026-08-04T11:03:00Z dev.jonas set-payload purchase_button_color green '{"color":"#34c759"}'
at 2026-08-05T08:00:00Z maria.pm start purchase_button_color
at 2026-08-20T08:00:00Z dev.jonas add-variant purchase_button_color orange --payload '{"color":"#ff9f0a"}'
at 2026-08-20T08:05:00Z maria.pm ramp purchase_button_color blue=40 green=40 orange=20
at 2026-09-01T16:30:00Z owner.sam resolve iap_discount discount_20
at 2026-09-15T09:00:00Z dev.jonas create onboarding_flow --type device --variants classic=50,video_tour=50 --control classic  --description "Three-screen classic onboarding vs a 45-second video tour"
at 2026-09-16T09:00:00Z maria.pm start onboarding_flow
at 2026-09-18T22:47:00Z dev.jonas pause onboarding_flow
at 2026-10-12T14:00:00Z maria.pm create paywall_type --type user --variants a=34,b=33,c=33 --control a  --description "Hard paywall (a), metered (b) or freemium with upsell (c)"
at 2026-10-12T14:10:00Z support.li whitelist add paywall_type qa-tester-1 a --note "QA: verify hard paywall"
at 2026-10-12T14:11:00Z support.li whitelist add paywall_type qa-tester-2 b --note "QA: verify metered paywall"
at 2026-10-12T14:12:00Z support.li whitelist add paywall_type qa-tester-3 c --note "QA: verify freemium upsell"

rm -f "$store.lock"
"$bin" validate
