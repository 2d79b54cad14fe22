// Package lru is a gfz example of a stateful (model-based) test: a
// least-recently-used cache, checked step by step against a simple model
// by gfz.T.Repeat, with a planted bug that only a particular order of at
// least four operations reaches.
//
// The bug: Put of a key already in the cache moves its entry to the front
// but, when that entry was the least recently used one (the tail), leaves
// the tail pointer on it. Nothing shows until the cache is full and a new
// key is put: the entry evicted is then the one moved to the front, not
// the least recently used one. The test (lru_test.go) uses capacity 4 and
// keys from 0 to 65535, so the shortest failing sequence is six
// operations in this order: Put a, Put b, Put a (a was the tail), then
// Put of three new keys, the last of which evicts a instead of b. A
// random sequence rarely puts the same key twice; coverage feedback
// keeps the sequences that do (the update path, then the update of the
// tail, are new branches) and grows them.
package lru

// Cache is an LRU cache of int keys and values with a fixed capacity.
type Cache struct {
	cap        int
	items      map[int]*entry
	head, tail *entry // most and least recently used
}

type entry struct {
	key, val   int
	prev, next *entry
}

// New returns an empty cache holding at most capacity entries (at least 1).
func New(capacity int) *Cache {
	return &Cache{cap: max(capacity, 1), items: map[int]*entry{}}
}

// Len returns the number of entries.
func (c *Cache) Len() int { return len(c.items) }

// Get returns the value of key and whether it is present, and marks it
// most recently used.
func (c *Cache) Get(key int) (int, bool) {
	e, ok := c.items[key]
	if !ok {
		return 0, false
	}
	c.unlink(e)
	c.pushFront(e)
	return e.val, true
}

// Put sets the value of key and marks it most recently used, evicting the
// least recently used entry when a new key does not fit.
func (c *Cache) Put(key, val int) {
	if e, ok := c.items[key]; ok {
		e.val = val
		if e == c.head {
			return
		}
		// Move e to the front.
		e.prev.next = e.next
		if e.next != nil {
			e.next.prev = e.prev
		} // BUG: when e is the tail, c.tail must become e.prev
		c.pushFront(e)
		return
	}
	if len(c.items) == c.cap {
		old := c.tail
		c.unlink(old)
		delete(c.items, old.key)
	}
	e := &entry{key: key, val: val}
	c.items[key] = e
	c.pushFront(e)
}

// Delete removes key; it reports whether it was present.
func (c *Cache) Delete(key int) bool {
	e, ok := c.items[key]
	if !ok {
		return false
	}
	c.unlink(e)
	delete(c.items, key)
	return true
}

// Keys returns the keys from the most to the least recently used.
func (c *Cache) Keys() []int {
	var out []int
	for e := c.head; e != nil && len(out) <= len(c.items); e = e.next {
		out = append(out, e.key)
	}
	return out
}

func (c *Cache) unlink(e *entry) {
	if e.prev != nil {
		e.prev.next = e.next
	} else {
		c.head = e.next
	}
	if e.next != nil {
		e.next.prev = e.prev
	} else {
		c.tail = e.prev
	}
	e.prev, e.next = nil, nil
}

func (c *Cache) pushFront(e *entry) {
	e.prev, e.next = nil, c.head
	if c.head != nil {
		c.head.prev = e
	}
	c.head = e
	if c.tail == nil {
		c.tail = e
	}
}
