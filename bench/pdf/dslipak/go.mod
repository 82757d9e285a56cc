module github.com/siftd/sift/bench/pdf/dslipak

go 1.26

require github.com/dslipak/pdf v0.0.2
