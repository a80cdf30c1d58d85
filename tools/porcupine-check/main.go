// Command porcupine-check checks an ftlab run's history (RUN_DIR/history/part-*.jsonl) of the bids workload for
// linearizability with Porcupine (github.com/anishathalye/porcupine), a checker nobody at ftlab wrote, so that
// `ftlab check` can be held to it. It prints one line per key, "KEY ok|illegal|unknown", then the run's verdict, and
// exits 0 (linearizable), 1 (not) or 3 (unknown).
//
// The auction's model here is written from the service's specification, apart from ftlab's: an offer is accepted iff
// it beats the highest accepted bid (or the starting price less a cent before any); its reply gives whether, and the
// leader, price and bid count after it (and the bid's id when accepted); a view gives leader, price and count; a
// final read lists the accepted bids in order. An operation whose completion is missing or "info" has an unknown
// outcome: its return is at the end of time and any output is accepted.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/anishathalye/porcupine"
)

type event struct {
	Index   int64           `json:"index"`
	Type    string          `json:"type"`
	F       string          `json:"f"`
	Value   json.RawMessage `json:"value"`
	Process json.RawMessage `json:"process"`
	Key     *string         `json:"key"`
}

type bid struct {
	Bid         int64  `json:"bid"`
	Bidder      string `json:"bidder"`
	AmountCents int64  `json:"amount_cents"`
}

type input struct {
	f      string
	start  int64
	bidder string
	amount int64
}

type output struct {
	accepted bool
	leader   string
	price    int64
	count    int
	bidID    int64
	bids     []bid
}

// state is comparable: the accepted bids are kept as text, so that states compare with ==.
type state struct {
	posted bool
	start  int64
	leader string
	price  int64
	count  int
	bids   string
}

func (s state) toBeat() int64 {
	if s.count == 0 {
		return s.start - 1
	}
	return s.price
}

func step(st interface{}, in interface{}, out interface{}) (bool, interface{}) {
	s := st.(state)
	i := in.(input)
	if i.f == "post" {
		if s.posted {
			return false, s
		}
		return true, state{posted: true, start: i.start}
	}
	if !s.posted {
		return false, s
	}
	switch i.f {
	case "offer":
		after := s
		beats := i.amount > s.toBeat()
		var o *output
		if out != nil {
			o = out.(*output)
		}
		if beats {
			id := int64(0)
			if o != nil {
				id = o.bidID
			}
			after = state{true, s.start, i.bidder, i.amount, s.count + 1, s.bids + entry(id, i.bidder, i.amount)}
		}
		if o == nil {
			return true, after
		}
		if o.accepted != beats || o.count != after.count {
			return false, s
		}
		if after.count > 0 && (o.price != after.price || o.leader != after.leader) {
			return false, s
		}
		return true, after
	case "view":
		if out == nil {
			return true, s
		}
		o := out.(*output)
		ok := o.count == s.count && (s.count == 0 || o.price == s.price && o.leader == s.leader)
		return ok, s
	case "read":
		if out == nil {
			return true, s
		}
		o := out.(*output)
		return matches(s.bids, o.bids), s
	}
	return false, s
}

func entry(id int64, bidder string, amount int64) string {
	return strconv.FormatInt(id, 10) + "|" + bidder + "|" + strconv.FormatInt(amount, 10) + ";"
}

// matches compares a state's accepted bids with a read's; an id of 0 (an offer of unknown outcome) matches any id.
func matches(acc string, read []bid) bool {
	parts := strings.Split(strings.TrimSuffix(acc, ";"), ";")
	if acc == "" {
		parts = nil
	}
	if len(parts) != len(read) {
		return false
	}
	for k, p := range parts {
		f := strings.Split(p, "|")
		id, _ := strconv.ParseInt(f[0], 10, 64)
		amount, _ := strconv.ParseInt(f[2], 10, 64)
		r := read[k]
		if (id != 0 && id != r.Bid) || f[1] != r.Bidder || amount != r.AmountCents {
			return false
		}
	}
	return true
}

func readInput(e event) (input, bool) {
	var v map[string]json.RawMessage
	_ = json.Unmarshal(e.Value, &v)
	num := func(k string) int64 {
		n, _ := strconv.ParseInt(string(v[k]), 10, 64)
		return n
	}
	str := func(k string) string {
		var s string
		_ = json.Unmarshal(v[k], &s)
		return s
	}
	switch e.F {
	case "post":
		return input{f: "post", start: num("start_cents")}, true
	case "offer":
		return input{f: "offer", bidder: str("bidder"), amount: num("amount_cents")}, true
	case "view", "read":
		return input{f: e.F}, true
	}
	return input{}, false
}

func readOutput(e event) interface{} {
	var v struct {
		Accepted   bool    `json:"accepted"`
		Leader     *string `json:"leader"`
		PriceCents int64   `json:"price_cents"`
		Count      int     `json:"count"`
		Bid        int64   `json:"bid"`
		Bids       []bid   `json:"bids"`
	}
	_ = json.Unmarshal(e.Value, &v)
	o := &output{accepted: v.Accepted, price: v.PriceCents, count: v.Count, bidID: v.Bid, bids: v.Bids}
	if v.Leader != nil {
		o.leader = *v.Leader
	}
	return o
}

type open struct {
	in   input
	key  string
	call int64
}

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: porcupine-check RUN_DIR")
		os.Exit(2)
	}
	parts, _ := filepath.Glob(filepath.Join(os.Args[1], "history", "part-*.jsonl"))
	sort.Strings(parts)
	if len(parts) == 0 {
		fmt.Fprintln(os.Stderr, "porcupine-check: "+os.Args[1]+" has no history")
		os.Exit(2)
	}
	byKey := map[string][]porcupine.Operation{}
	pending := map[string]open{}
	for _, p := range parts {
		f, err := os.Open(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "porcupine-check:", err)
			os.Exit(2)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<26)
		for sc.Scan() {
			var e event
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				fmt.Fprintln(os.Stderr, "porcupine-check:", p, err)
				os.Exit(2)
			}
			proc := string(e.Process)
			if proc == `"nemesis"` {
				continue
			}
			if e.Type == "invoke" {
				in, ok := readInput(e)
				key := ""
				if e.Key != nil {
					key = *e.Key
				}
				if ok {
					pending[proc] = open{in, key, e.Index}
				} else {
					delete(pending, proc)
				}
				continue
			}
			o, ok := pending[proc]
			if !ok {
				continue
			}
			delete(pending, proc)
			key := o.key
			if key == "" && e.Key != nil {
				key = *e.Key
			}
			switch e.Type {
			case "ok":
				if key != "" {
					byKey[key] = append(byKey[key], porcupine.Operation{Input: o.in, Call: o.call,
						Output: readOutput(e), Return: e.Index})
				}
			case "info":
				if key != "" {
					byKey[key] = append(byKey[key], porcupine.Operation{Input: o.in, Call: o.call,
						Output: nil, Return: math.MaxInt64 - int64(len(byKey[key]))})
				}
			}
		}
		f.Close()
	}
	for _, o := range pending { // never completed: unknown outcome
		if o.key != "" {
			byKey[o.key] = append(byKey[o.key], porcupine.Operation{Input: o.in, Call: o.call, Output: nil,
				Return: math.MaxInt64 - int64(len(byKey[o.key]))})
		}
	}
	model := porcupine.Model{
		Init:  func() interface{} { return state{} },
		Step:  step,
		Equal: func(a, b interface{}) bool { return a.(state) == b.(state) },
	}
	keys := make([]string, 0, len(byKey))
	for k := range byKey {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	verdict := 0
	for _, k := range keys {
		// an unknown outcome's output is nil: the model's step takes any reply then
		res := porcupine.CheckOperationsTimeout(model, byKey[k], time.Minute)
		switch res {
		case porcupine.Ok:
			fmt.Println(k, "ok")
		case porcupine.Illegal:
			fmt.Println(k, "illegal")
			verdict = 1
		default:
			fmt.Println(k, "unknown")
			if verdict == 0 {
				verdict = 3
			}
		}
	}
	fmt.Println(map[int]string{0: "valid", 1: "invalid", 3: "unknown"}[verdict])
	os.Exit(verdict)
}
