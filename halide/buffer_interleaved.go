package halide

import "fmt"

// NewInterleavedBuffer returns a zero-filled width x height x channels
// buffer stored with the channels of a pixel next to each other (Halide's
// Buffer<T>::make_interleaved): the strides are channels, width*channels
// and 1, where NewBuffer's are 1, width and width*height. Pipelines read
// and write it through its strides (tutorial lesson 16's interleaved
// layout; Func.Specialize on Dim(0).Stride() picks a schedule per
// layout). A bad extent is an ErrBufferShape error, as for NewBuffer.
func NewInterleavedBuffer[T Number](width, height, channels int) *Buffer[T] {
	b := &Buffer[T]{name: fmt.Sprintf("b%d", bufferCount.Add(1))}
	b.shape = []BufDim{
		{Extent: width, Stride: channels},
		{Extent: height, Stride: width * channels},
		{Extent: channels, Stride: 1},
	}
	if checkShape(b.name, b.shape) == nil {
		b.data = make([]T, width*height*channels)
	}
	return b
}
