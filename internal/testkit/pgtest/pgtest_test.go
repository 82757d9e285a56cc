package pgtest

import "testing"

func TestStartStop(t *testing.T) {
	s, err := Start()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	dsn, err := s.CreateDB("sift_try")
	if err != nil {
		t.Fatal(err)
	}
	t.Log(dsn)
}
