// Included through -I by driver.cpp.
#define INPUT_VALUE 1
