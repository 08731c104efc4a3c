# Clock constraint of every FPGA top: f_clk = 187.500 MHz on ac510.
create_clock -name clk -period 5.333 [get_ports clk]
