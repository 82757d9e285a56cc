module github.com/siftd/sift/plugins/pdf/tools/dslipak

go 1.26

require github.com/dslipak/pdf v0.0.2
