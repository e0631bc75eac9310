// Command rateoracle writes test vectors for Sluice's RateLimiter from golang.org/x/time/rate itself.
//
// It drives rate.Limiter through its public API (AllowN, ReserveN, Reservation.CancelAt and DelayFrom,
// SetLimitAt, SetBurstAt, TokensAt) along seeded random operation sequences, at times that mostly increase and
// sometimes go back, over limits that include 0, Inf and tiny ones and bursts that include 0, and prints every
// call with Go's results. The Java test RateOracleTest replays each line and must agree on every one.
//
// The output depends only on the seed and on x/time v0.16.0, and on amd64 float arithmetic: Go may fuse a
// multiply and an add on other architectures, which changes low bits.
//
// Usage: go run . [-seed N] [-sequences N] [-out FILE]
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"time"

	"golang.org/x/time/rate"
)

// epoch is the Go time that Java's nanosecond 0 stands for. It has no monotonic reading, so Sub and Add work on
// the wall clock and saturate exactly as the Java side does.
var epoch = time.Unix(1_700_000_000, 0)

func at(nanos int64) time.Time {
	return epoch.Add(time.Duration(nanos))
}

// splitmix64: a fixed generator, so the vectors do not depend on the standard library's choice of algorithm.
type random struct{ state uint64 }

func (r *random) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a value in [0, n).
func (r *random) intn(n int) int {
	return int(r.next() % uint64(n))
}

// float returns a value in [0, 1).
func (r *random) float() float64 {
	return float64(r.next()>>11) / (1 << 53)
}

func (r *random) limit() rate.Limit {
	switch r.intn(12) {
	case 0:
		return 0
	case 1:
		return rate.Inf
	case 2:
		return 1e-10 // golang/go#71154
	case 3:
		return 0.7692307692307693 // golang/go#34861
	case 4:
		return rate.Limit(1 + r.intn(20))
	case 5:
		return rate.Limit(r.float() * 1e-3)
	case 6:
		return rate.Limit(r.float() * 1e6)
	case 7:
		return rate.Every(time.Duration(1 + r.intn(1_000_000_000)))
	case 8:
		return rate.Limit(425)
	case 9:
		return rate.Limit(1e9 + r.float()*1e9)
	default:
		return rate.Limit(r.float() * 100)
	}
}

func (r *random) burst() int {
	switch r.intn(8) {
	case 0:
		return 0
	case 1:
		return 1
	case 2:
		return 2
	case 3:
		return 10
	case 4:
		return 1 + r.intn(1000)
	default:
		return r.intn(20)
	}
}

// n returns a token count around the burst, sometimes above it.
func (r *random) n(burst int) int {
	switch r.intn(10) {
	case 0:
		return 0
	case 1:
		return burst + 1 + r.intn(3)
	case 2:
		return burst
	default:
		return r.intn(burst/2 + 2)
	}
}

// start returns the first instant of a sequence: anywhere, including near the ends of int64.
func (r *random) start() int64 {
	switch r.intn(8) {
	case 0:
		return math.MaxInt64 - int64(r.intn(1_000_000_000_000))
	case 1:
		return math.MinInt64 + int64(r.intn(1_000_000_000_000))
	case 2:
		return 0
	default:
		return int64(r.next())
	}
}

// step returns the next instant: mostly a little later, sometimes much later, sometimes earlier.
func (r *random) step(t int64) int64 {
	var d int64
	switch r.intn(20) {
	case 0:
		d = -int64(r.intn(1_000_000_000)) // back in time, up to a second
	case 1:
		d = -int64(r.intn(1000))
	case 2, 3, 4:
		d = 0
	case 5:
		d = int64(r.next() >> 2) // far ahead
	case 6, 7:
		d = int64(r.intn(10_000_000_000)) // up to 10 s
	case 8:
		d = int64(r.intn(1000))
	default:
		d = int64(r.intn(200_000_000)) // up to 200 ms
	}
	s := t + d
	if (d > 0 && s < t) || (d < 0 && s > t) {
		return t // would leave int64: stay
	}
	return s
}

func f(x float64) string {
	if math.IsInf(x, 0) || math.IsNaN(x) {
		panic(fmt.Sprintf("not a finite float: %v", x))
	}
	return strconv.FormatFloat(x, 'g', -1, 64)
}

func b(ok bool) string {
	if ok {
		return "1"
	}
	return "0"
}

func main() {
	seed := flag.Uint64("seed", 20261121, "seed of the operation sequences")
	sequences := flag.Int("sequences", 700, "how many limiters to drive")
	out := flag.String("out", "", "file to write (default stdout)")
	flag.Parse()

	var w *bufio.Writer
	if *out == "" {
		w = bufio.NewWriter(os.Stdout)
	} else {
		file, err := os.Create(*out)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer file.Close()
		w = bufio.NewWriter(file)
	}
	defer w.Flush()

	fmt.Fprintf(w, "# Test vectors of golang.org/x/time/rate v0.16.0, written by sluice-limits/src/test/go/rateoracle.\n")
	fmt.Fprintf(w, "# seed %d, %d sequences. Do not edit: scripts/check-rate-vectors.sh regenerates and compares.\n",
		*seed, *sequences)
	fmt.Fprintf(w, "# Times t are nanoseconds; floats are Go's shortest round-trip form; ok is 1 or 0; each line ends\n")
	fmt.Fprintf(w, "# with TokensAt(t) after the call.\n")
	fmt.Fprintf(w, "#   new LIMIT BURST                  NewLimiter\n")
	fmt.Fprintf(w, "#   allow T N OK TOKENS              AllowN(t, n)\n")
	fmt.Fprintf(w, "#   reserve T N ID OK DELAY TOKENS   r[ID] = ReserveN(t, n); DELAY = r.DelayFrom(t)\n")
	fmt.Fprintf(w, "#   delay T ID DELAY TOKENS          r[ID].DelayFrom(t)\n")
	fmt.Fprintf(w, "#   cancel T ID TOKENS               r[ID].CancelAt(t)\n")
	fmt.Fprintf(w, "#   limit T LIMIT TOKENS             SetLimitAt(t, limit)\n")
	fmt.Fprintf(w, "#   burst T BURST TOKENS             SetBurstAt(t, burst)\n")
	fmt.Fprintf(w, "#   tokens T TOKENS                  TokensAt(t)\n")

	r := &random{state: *seed}
	for s := 0; s < *sequences; s++ {
		limit, burst := r.limit(), r.burst()
		lim := rate.NewLimiter(limit, burst)
		fmt.Fprintf(w, "new %s %d\n", f(float64(limit)), burst)
		var reservations []*rate.Reservation
		t := r.start()
		ops := 20 + r.intn(60)
		for i := 0; i < ops; i++ {
			t = r.step(t)
			switch op := r.intn(100); {
			case op < 35:
				n := r.n(lim.Burst())
				ok := lim.AllowN(at(t), n)
				fmt.Fprintf(w, "allow %d %d %s %s\n", t, n, b(ok), f(lim.TokensAt(at(t))))
			case op < 60:
				n := r.n(lim.Burst())
				res := lim.ReserveN(at(t), n)
				reservations = append(reservations, res)
				fmt.Fprintf(w, "reserve %d %d %d %s %d %s\n", t, n, len(reservations)-1, b(res.OK()),
					int64(res.DelayFrom(at(t))), f(lim.TokensAt(at(t))))
			case op < 70 && len(reservations) > 0:
				id := r.intn(len(reservations))
				reservations[id].CancelAt(at(t))
				fmt.Fprintf(w, "cancel %d %d %s\n", t, id, f(lim.TokensAt(at(t))))
			case op < 78 && len(reservations) > 0:
				id := r.intn(len(reservations))
				fmt.Fprintf(w, "delay %d %d %d %s\n", t, id, int64(reservations[id].DelayFrom(at(t))),
					f(lim.TokensAt(at(t))))
			case op < 84:
				limit := r.limit()
				lim.SetLimitAt(at(t), limit)
				fmt.Fprintf(w, "limit %d %s %s\n", t, f(float64(limit)), f(lim.TokensAt(at(t))))
			case op < 90:
				burst := r.burst()
				lim.SetBurstAt(at(t), burst)
				fmt.Fprintf(w, "burst %d %d %s\n", t, burst, f(lim.TokensAt(at(t))))
			default:
				fmt.Fprintf(w, "tokens %d %s\n", t, f(lim.TokensAt(at(t))))
			}
		}
	}
}
