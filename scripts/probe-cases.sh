#!/usr/bin/env bash
# probe-cases.sh LAUNCHER OUTDIR: the bad cases of issue 20 (a 915-case probe), one line each:
# id | exit code | seconds | lines printed | first line (run with an old launcher for the "before")
# (case 2 makes a private device node with mknod: run as root; everything happens under OUTDIR)
H="$1"; OUT="$2"; mkdir -p "$OUT"; cd "$OUT"; rm -rf w; mkdir w; cd w
P13="--preset n13 --algo th-bsgs --n 64"
row() { # id timeout cmd...
  local id="$1" to="$2"; shift 2
  local t0=$(date +%s.%N)
  timeout "$to" "$@" > out.txt 2>&1 < /dev/null; local rc=$?
  local t1=$(date +%s.%N)
  grep -v '^WARNING' out.txt > o2.txt
  printf '%s | %s | %.1f | %s | %s\n' "$id" "$rc" "$(echo "$t1 - $t0" | bc)" "$(wc -l < o2.txt)" "$(head -c 230 o2.txt | head -1)"
}
row "1 same --out/--secret-out" 60 $H keygen $P13 --out same.bin --secret-out same.bin
echo "   -> same.bin holds: $( $H inspect same.bin 2>&1 | head -1 | cut -c1-80)"
mknod devfull c 1 7
row "2 --secret-out device node" 60 $H keygen $P13 --out d.hks --secret-out devfull
echo "   -> devfull is now: $(stat -c %F devfull)"
$H keygen $P13 --out old.hks --secret-out old.hsk > /dev/null 2>&1
row "3a --secret-out in a missing directory" 60 $H keygen $P13 --out old.hks --secret-out nodir/old.hsk
row "3b lt on the old pair afterwards" 120 $H lt --preset n13 --n 64 --keys old.hks --secret old.hsk
$H keygen $P13 --out other.hks --secret-out other.hsk > /dev/null 2>&1
row "3c lt --keys A --secret B (two pairs)" 120 $H lt --preset n13 --n 64 --keys old.hks --secret other.hsk
row "4 lt --rows 2147483647 --block 64" 60 $H lt --preset n13 --rows 2147483647 --block 64
row "5a lt --preset n16 --n 32768" 70 $H lt --preset n16 --n 32768
row "5b ... --storage compact" 70 $H lt --preset n16 --n 32768 --storage compact
row "5c ... --schedule phased" 70 $H lt --preset n16 --n 32768 --schedule phased
row "6 spark-lt -Xmx2g local[1] n14 65536/8192" 150 env HOIST_JVM_OPTS=-Xmx2g $H spark-lt --master 'local[1]' --preset n14 --rows 65536 --block 8192
row "8a spark-lt --master garbage://x" 120 $H spark-lt --master garbage://x --rows 128 --logN 11 --logQ 50,40,40 --logP 60 --insecure
row "8b spark-lt --master local[0]" 120 $H spark-lt --master 'local[0]' --rows 128 --logN 11 --logQ 50,40,40 --logP 60 --insecure
mkfifo fifo
row "9a lt --keys FIFO" 10 $H lt --preset n13 --n 64 --keys fifo --secret old.hsk
row "9b lt --secret FIFO" 10 $H lt --preset n13 --n 64 --keys old.hks --secret fifo
row "9c inspect FIFO" 10 $H inspect fifo
row "9d lt --secret /dev/zero" 60 $H lt --preset n13 --n 64 --keys old.hks --secret /dev/zero
row "10a ops --runs 100000000" 20 $H ops --preset n13 --runs 100000000
row "10b ntt --warmup 100000" 20 $H ntt --warmup 100000
cp other.hsk victim.hsk
row "11 spark-lt --key-store over a secret key" 150 $H spark-lt --master 'local[1]' --rows 128 --logN 11 --logQ 50,40,40 --logP 60 --insecure --key-store victim.hsk
echo "   -> victim.hsk now: $(cmp -s victim.hsk other.hsk && echo unchanged || echo REPLACED)"
row "13a lt --onchip-mb without --schedule phased" 60 $H lt --preset n13 --n 64 --onchip-mb 5
row "13b ctos --key-budget without --objective budget" 120 $H ctos --logN 11 --logQ 50,40x4 --logP 60 --insecure --key-budget 5
row "13c ctos --stoc-depth without --stoc" 120 $H ctos --logN 11 --logQ 50,40x4 --logP 60 --insecure --stoc-depth 2
row "13d lt --n 3 (padding)" 60 $H lt --logN 11 --logQ 50,40,40 --logP 60 --insecure --n 3 --json
echo "   -> $(grep -o '"n":[0-9]*\|"paddedFrom":[0-9]*' out.txt | tr '\n' ' ')"
row "13e lt --n １２ (full-width digits)" 60 $H lt --preset n13 --n １２
row "13f lt --logQ 0" 60 $H lt --logN 13 --logQ 0 --logP 60
row "13g lt --logQ 20x100" 60 $H lt --logN 13 --logQ 20x100 --logP 60 --insecure
row "13h lt --bogus (parse error)" 60 $H lt --bogus
row "13i keygen --out in a missing directory" 60 $H keygen $P13 --out nodir/x.hks --secret-out x.hsk
row "13j tradeoff --measure-n without --measure" 60 $H tradeoff --measure-n 64
